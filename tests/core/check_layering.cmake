# The layers of core (README.md, "Layout"), checked on the includes: the link structure of
# warpscope_io and warpscope_model (core/CMakeLists.txt) keeps their code from calling upward, but
# all of core's headers sit on one include path, so a header of a higher layer could still be
# included (its types and inline code used) without a link error. This script fails on such an
# include. Run as: cmake -DCORE_DIR=<source>/core -P check_layering.cmake
#
# Each folder may include its own headers and those of the layers listed for it; folders not listed
# (import, store, export, remote, source) are the top floor and may include anything in core.
cmake_minimum_required(VERSION 3.25)

set(allowed_io io)
set(allowed_model model io)
set(allowed_index index model io)
set(allowed_analysis analysis index model io)

if(NOT CORE_DIR OR NOT IS_DIRECTORY "${CORE_DIR}")
    message(FATAL_ERROR "check_layering: CORE_DIR is not core's source folder: '${CORE_DIR}'")
endif()
file(GLOB folders LIST_DIRECTORIES true RELATIVE "${CORE_DIR}" "${CORE_DIR}/*")
set(violations "")
set(checked 0)
foreach(layer io model index analysis)
    list(JOIN allowed_${layer} ", " allowed_text)
    file(GLOB_RECURSE sources "${CORE_DIR}/${layer}/*.h" "${CORE_DIR}/${layer}/*.cpp")
    foreach(source ${sources})
        math(EXPR checked "${checked} + 1")
        file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
        foreach(line ${includes})
            string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" header "${line}")
            string(REGEX MATCH "^[^/]+" top "${header}")
            # Only core's own folders are layers; other quoted headers (generated ones) pass.
            if(NOT header MATCHES "/" OR NOT top IN_LIST folders)
                continue()
            endif()
            if(NOT top IN_LIST allowed_${layer})
                file(RELATIVE_PATH where "${CORE_DIR}" "${source}")
                list(APPEND violations "core/${where} includes \"${header}\" (${layer} may include ${allowed_text})")
            endif()
        endforeach()
    endforeach()
endforeach()
if(checked EQUAL 0)
    message(FATAL_ERROR "check_layering: no sources found under ${CORE_DIR}")
endif()
if(violations)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "core layering violated:\n  ${text}")
endif()
message(STATUS "core layering: ${checked} files of io, model, index and analysis include only their own or lower layers")
