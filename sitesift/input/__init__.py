"""input stage."""
