#pragma once

#include <string>
#include <string_view>

namespace ws {

/*
 * The name a legend or a narrow column shows for a kernel (issue #51): the function's own name,
 * without its return type, namespaces, template arguments and parameter list, with "<…>" where
 * template arguments were folded: "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)"
 * is "vectorized_elementwise_kernel<…>". A name that is no C++ signature ("nvjet_tst_128x256_...",
 * "Memcpy HtoD") stays as it is. The full name belongs in the tooltip.
 */
std::string shortKernelName(std::string_view name);

} // namespace ws
