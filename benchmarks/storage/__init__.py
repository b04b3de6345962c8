"""EBS volumes as pure arithmetic: no ORM, no I/O.

- `gp2`: the gp2 burst model of study S4 (a token bucket of I/O credits).
- `volumes`: what each volume type allows (sizes, IOPS, throughput), what it performs, and what
  a volume costs a month from its rates.

Both raise `DomainError` naming the field for a volume AWS would refuse.
"""
