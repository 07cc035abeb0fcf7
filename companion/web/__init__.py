"""HTTP plumbing: what every request and response goes through; links, languages, errors."""
