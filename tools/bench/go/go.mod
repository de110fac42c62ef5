module zend-async-ref/tools/bench/go

go 1.19
