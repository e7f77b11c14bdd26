"""output stage."""
