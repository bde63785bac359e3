module gmp4jbench

go 1.19
