# Cross-compiling for 64-bit Windows with MinGW-w64 (Debian: gcc-mingw-w64-x86-64). Programs run
# under Wine when it is there (Debian: wine64), through CMAKE_CROSSCOMPILING_EMULATOR.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Statically linked so the test programs run without the toolchain's DLLs (libgcc, winpthread) beside them.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(LB_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
  if(LB_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${LB_WINE})
  endif()
endif()
