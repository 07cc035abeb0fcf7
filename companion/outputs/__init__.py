"""What is made of stored games: charts, statistics, BG Stats links, export and restore."""
