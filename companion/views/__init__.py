"""Web pages: small blueprints, thin shells over the games' core."""
