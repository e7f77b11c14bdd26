"""Fields of a record read from a page, used by every method: posts of a thread (``posts``, the
post rules of paper 001's KSF)."""
