# One place for the warning flags every first-party target uses.
add_library(warpscope_warnings INTERFACE)
target_compile_options(warpscope_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Wformat=2)
if(WARPSCOPE_WERROR)
    target_compile_options(warpscope_warnings INTERFACE -Werror)
endif()
