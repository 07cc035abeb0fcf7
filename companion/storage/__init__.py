"""Stored games: the database's tables, their reads and versioned writes, what is kept beside them."""
