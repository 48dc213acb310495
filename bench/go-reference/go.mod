module spawnbench/bench/go-reference

go 1.22
