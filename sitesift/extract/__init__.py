"""Field extractors: main content, title, author, publication time, page type."""
