"""The Discord layer: the only package that talks to Discord."""
