"""The table: the one command path, its storage, and every concern of a
table (lobby, play, ending, rematch, chat, robots, jobs, story, analyses,
the coach, which notices a seat hears, devices, transfer codes, «Mis
mesas»), put together in `service.TableService`.

May import: base (of escoba, the engine, robots, analysis and words); never a
route, a template, a stream or a channel."""
