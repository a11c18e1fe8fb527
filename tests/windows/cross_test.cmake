# Windows: cross-compiles the core library and its tests with MinGW-w64 and runs the tests under
# Wine, then builds limber.dll and checks its export table against the LB_API declarations and runs
# a program linked to it. Run with cmake -P and SOURCE (limber's tree), WORK (scratch), GENERATOR.
# Skips (printing "skipped:") when the cross compiler is missing; make deps installs it and Wine.
cmake_minimum_required(VERSION 3.20)
find_program(MINGW_GCC x86_64-w64-mingw32-gcc)
if(NOT MINGW_GCC)
  message("skipped: no MinGW-w64 cross compiler (apt-get install gcc-mingw-w64-x86-64 wine64, or make deps)")
  return()
endif()
find_program(WINE NAMES wine64 wine PATHS /usr/lib/wine)
set(ENV{WINEDEBUG} -all)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(LAST_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

set(toolchain ${SOURCE}/cmake/mingw-w64-x86_64.cmake)
file(REMOVE_RECURSE ${WORK})

# 1. The core and its tests, static, warnings as errors.
run(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/static -G ${GENERATOR} -DCMAKE_TOOLCHAIN_FILE=${toolchain}
    -DCMAKE_BUILD_TYPE=Release -DLIMBER_BUILD_IO=OFF -DLIMBER_BUILD_APPS=OFF -DLB_WERROR=ON)
run(${CMAKE_COMMAND} --build ${WORK}/static)
if(WINE)
  # Wine sets up its prefix on first use (and again when it finds it outdated); do that before the
  # tests, and let a test that fails at Wine's start-up run again (a real failure fails every time).
  execute_process(COMMAND ${WINE} wineboot --init OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
  run(${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/static --output-on-failure --repeat until-pass:3)
  string(REGEX MATCH "[0-9]+% tests passed[^\n]*" summary "${LAST_OUTPUT}")
  message(STATUS "Windows core tests under Wine: ${summary}")
else()
  message(STATUS "Windows core and tests built; not run: Wine missing (apt-get install wine64)")
endif()

# 2. limber.dll: exactly the LB_API functions exported, usable from a program.
run(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/shared -G ${GENERATOR} -DCMAKE_TOOLCHAIN_FILE=${toolchain}
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DLIMBER_BUILD_IO=OFF -DLIMBER_BUILD_APPS=OFF
    -DLIMBER_BUILD_TESTS=OFF -DLB_WERROR=ON)
run(${CMAKE_COMMAND} --build ${WORK}/shared)
file(GLOB_RECURSE dll ${WORK}/shared/*limber.dll)
file(GLOB_RECURSE implib ${WORK}/shared/*limber.dll.a)
run(x86_64-w64-mingw32-objdump -p ${dll})
string(REGEX MATCH "\\[Ordinal/Name Pointer\\] Table.*" table "${LAST_OUTPUT}")
string(REGEX MATCHALL "\\] lb[A-Za-z0-9_]+" exports "${table}")
list(TRANSFORM exports REPLACE "\\] " "")
list(SORT exports)
set(api "")
file(GLOB headers ${SOURCE}/include/limber/*.h)
list(FILTER headers EXCLUDE REGEX "/(import|metrics|scenario)\\.h$") # the io layer's
foreach(h ${headers})
  file(READ ${h} text)
  string(REGEX MATCHALL "LB_API[^(;#]*\\(" decls "${text}")
  foreach(d ${decls})
    if(d MATCHES "(lb[A-Za-z0-9_]+)[ \t\n]*\\($")
      list(APPEND api ${CMAKE_MATCH_1})
    endif()
  endforeach()
endforeach()
list(SORT api)
set(missing ${api})
list(REMOVE_ITEM missing ${exports})
set(extra ${exports})
if(api)
  list(REMOVE_ITEM extra ${api})
endif()
list(LENGTH exports n)
file(SIZE ${dll} size)
message(STATUS "limber.dll: ${size} bytes, ${n} functions exported")
if(missing OR extra)
  message(FATAL_ERROR "limber.dll exports differ from the core's LB_API declarations\n  declared, not exported: ${missing}\n"
                      "  exported, not declared: ${extra}")
endif()
get_filename_component(dlldir ${dll} DIRECTORY)
run(${MINGW_GCC} -std=c17 -O1 -DLB_DLL -I${SOURCE}/include -o ${dlldir}/consumer.exe ${SOURCE}/tests/install/consumer/core.c
    ${implib} -static-libgcc)
if(WINE)
  run(${WINE} ${dlldir}/consumer.exe)
  string(STRIP "${LAST_OUTPUT}" out)
  message(STATUS "program linked to limber.dll under Wine: ${out}")
endif()
