"""The app as it runs: killed, restarted, its database gone and back, its metrics."""
