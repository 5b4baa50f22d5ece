"""The frame of every request (escoba.web.frame): guards, limits."""
