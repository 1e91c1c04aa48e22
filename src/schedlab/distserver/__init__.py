"""Distributed-server model of Schroeder & Harchol-Balter (2004): h identical FCFS hosts, one job at
a time each, run to completion, every job dispatched on arrival.

Modules: :mod:`.queueing` (M/G/1 Pollaczek–Khinchine and the M/G/h approximation, Theorem 1 and
§3.3), :mod:`.simulate` (the task assignment policies, §1.2 and §5), :mod:`.cutoffs` (SITA-E,
SITA-U-opt, SITA-U-fair cutoffs, §4.1 and the ρ/2 rule of thumb, §4.4) and :mod:`.workload`
(service times from a trace, Poisson and scaled-trace arrivals, §2.2 and §6).
"""
