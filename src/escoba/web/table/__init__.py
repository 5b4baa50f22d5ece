"""The table: the one command path, its storage, and every command and read
of a table (lobby, play, ending, rematch, chat, robots' jobs, story,
analyses' rows and reads, the coach's choice), each a class given the
path (a command) or the database and the store (a read), built by
`service.TableService`. What a page makes of them is
`escoba.web.rendering`. The processes that think and weigh (the robots'
pool, the analyses' runner) are `escoba.web.workers`; a browser's device
and its tables are `escoba.web.devices`; the notices, their choices and
their sweep are `escoba.web.notices`.

May import: base (of escoba, the engine, robots, analysis and words); never a
route, a template, a stream or a channel."""
