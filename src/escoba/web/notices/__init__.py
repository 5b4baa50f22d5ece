"""The notices: what a notice is and the channels' contract (`notice`), the
dispatcher that hears of every commit and decides who is told what
(`dispatch`), the notices time brings (`sweep`), which notices a seat hears
of (`choices`), the seats whose table page is open and hear nothing else
(`watching`), and the channels: Web Push (push/) and e-mail (email/).

May import: table, base."""
