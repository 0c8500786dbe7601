# Helpers shared by every folder's CMakeLists.txt.
#
# eddy_library(NAME DEPS ...): a static library from the folder's *.cc files (tests/ and main.cc excluded).
# eddy_test(NAME DEPS ...): a GoogleTest binary from the folder's tests/*_test.cc, registered with CTest.
# eddy_warnings(TARGET): the project's warnings on a target, as errors unless EDDY_WERROR is OFF.

option(EDDY_WERROR "treat compiler warnings as errors" ON)

function(eddy_warnings target)
  # Designated initializers leave fields at their defaults on purpose.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
                                           -Wno-missing-field-initializers)
  if(EDDY_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # GCC 12 reports impossible overlaps in inlined std::string appends at -O3, the Release level
  # (GCC bug 105329).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13
     AND CMAKE_BUILD_TYPE STREQUAL "Release")
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()

function(eddy_library name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(FILTER srcs EXCLUDE REGEX ".*/main\\.cc$")
  list(FILTER srcs EXCLUDE REGEX ".*_test\\.cc$")
  if(NOT srcs)  # header-only so far
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/proto)
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/proto)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  eddy_warnings(${name})
endfunction()

function(eddy_test name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*_test.cc)
  if(NOT srcs)
    return()
  endif()
  add_executable(${name} ${srcs})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  eddy_warnings(${name})
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST PROPERTIES TIMEOUT 300)
endfunction()
