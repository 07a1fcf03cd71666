module refcode

go 1.26
