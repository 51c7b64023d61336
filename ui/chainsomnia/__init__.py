"""CHAINsomnia on the touchscreen: setup, the castle map, the boards and the turn."""
