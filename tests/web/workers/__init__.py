"""The worker processes (escoba.web.workers): the robots' runner, the analyses' workers."""
