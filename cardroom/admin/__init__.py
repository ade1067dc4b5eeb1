"""Admin commands (`commands`: pure parsing + operations on the room and the store) and the
command panel (`panel`: a Textual screen, also the server console's app)."""
