"""The live updates (escoba.web.live), in one process and across several."""
