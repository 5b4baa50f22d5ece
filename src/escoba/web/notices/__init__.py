"""The notices' channels: the dispatcher that hears of every commit and
decides who is told what, Web Push (push/) and e-mail (email/).

May import: table, base."""
