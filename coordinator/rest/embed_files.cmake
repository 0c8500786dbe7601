# Writes OUTPUT: a C++ file defining one `extern const std::string_view <name>` per NAMES/FILES pair
# with the bytes of that file, so that static files are compiled into a binary.
#   cmake -DOUTPUT=out.cc -DNAMES="a;b" -DFILES="a.html;b.js" -P embed_files.cmake
set(content "// Generated from ${FILES} by embed_files.cmake; do not edit.\n#include <string_view>\n\nnamespace eddy {\n")
list(LENGTH NAMES count)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  list(GET NAMES ${i} name)
  list(GET FILES ${i} file)
  file(READ ${file} hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  string(APPEND content "static const char ${name}_bytes[] = {${bytes} 0};\n")
  string(APPEND content "extern const std::string_view ${name}(${name}_bytes, ${size});\n")
endforeach()
string(APPEND content "}  // namespace eddy\n")
file(WRITE ${OUTPUT} "${content}")
