"""CHAINsomnia's pure rules."""
