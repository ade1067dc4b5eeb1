"""The roles of a room spread over processes (`cardroom serve --role tables|gateway`)."""
