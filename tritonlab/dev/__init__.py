"""Tools for lesson authors and maintainers (the developer check); the one room that uses content and
engine."""
