"""A browser's device and the seats it holds: the one signed cookie and who
it is (`devices`), «Mis mesas», the tables of a device (`my_tables`),
«Seguir en otro dispositivo», the codes that give a seat or the whole list
to another browser, or an API client a new token (`transfers`), and a
seat's devices, taking it back from one (`seat_devices`). Each is a class
of its own on the table's database, store and command path, made by the
app beside the table service.

May import: table, base."""
