"""The balance lab (`cardgen balance`): many seeded games, their statistics, and reports a designer can read.

`sweep` plays a sweep's batches on any executor and keeps each batch in a results file (`journal`) as it arrives;
`stats` turns the merged tally into figures with intervals; `compare` sets two reports side by side; `document`
lays the figures out once as sections, tables and `plots`, which `html` and `pdf` render; `report` ties them
together for the command line.
"""
