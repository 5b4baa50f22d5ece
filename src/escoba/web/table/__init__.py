"""The table: the one command path, its storage, and every concern of a
table (lobby, play, ending, rematch, chat, robots' jobs, story, analyses'
rows and reads, the coach, which notices a seat hears, devices, transfer
codes, «Mis mesas»), put together in `service.TableService`. The processes
that think and weigh (the robots' pool, the analyses' runner) are
`escoba.web.workers`.

May import: base (of escoba, the engine, robots, analysis and words); never a
route, a template, a stream or a channel."""
