"""The worker processes and what feeds them: the robots' runner and their
thinking pool (`robots`), the runner of the rounds' analyses in processes of
their own (`analyses`), and how such a process is forked, watches its parent
and yields the CPU (`processes`). The table's commands and reads stay in
`table`; these only call them.

May import: table, base."""
