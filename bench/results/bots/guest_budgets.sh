#!/bin/sh
# Decision times of the search run as a protocol program, as the host measures them.
for b in 10 50 500; do
  p=40; [ $b = 500 ] && p=6
  nice -n 15 .venv/bin/fourhundred arena "cmd:.venv/bin/python -m fourhundred.bots.guest search" heuristic --pairs $p --games 0 --budget-ms $b --seed 1 --json > runs/guest$b.json 2> runs/guest$b.err
done
