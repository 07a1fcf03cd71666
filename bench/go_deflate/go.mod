module godeflate

go 1.26
