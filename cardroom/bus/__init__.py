"""The RoomClient API between processes, over NATS: table hosts serve tables (`host.TableHost`),
gateways make remote clients of them (`client.Gateway`, `client.RemoteClient`)."""
