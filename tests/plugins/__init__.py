"""Stand-in games written as a fourth game is (docs/architecture.md, "Adding a fourth game")."""
