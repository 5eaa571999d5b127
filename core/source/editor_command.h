#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * EditorPreset: one row of the built-in editor table. `commandTemplate` uses the template syntax
 * of expandEditorCommand(); `id` is the stable key stored in settings, `name` the display name
 * (a product name, not translated).
 */
struct EditorPreset {
    const char* id;
    const char* name;
    const char* commandTemplate;
};

// The built-in presets, in display order; "system" (xdg-open) is first.
const std::vector<EditorPreset>& editorPresets();
// The preset with this id, or nullptr.
const EditorPreset* findEditorPreset(std::string_view id);

/* Where to open: a file path and a 1-based line and column (0 = unknown, expanded as 1). */
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
};

/*
 * Splits a command template into arguments. Rules (a small, documented subset of POSIX shell word
 * splitting; nothing is ever executed by a shell):
 *   - unquoted spaces and tabs separate arguments;
 *   - '...' keeps everything literally up to the next single quote;
 *   - "..." keeps everything literally except \" and \\, which give " and \;
 *   - outside quotes a backslash makes the next character literal;
 *   - quoted and unquoted pieces next to each other form one argument ('a'b -> ab), and '' is an
 *     empty argument.
 * Returns nullopt (and a message in *error) for an unterminated quote or a trailing backslash.
 * No $, `, ;, |, &, <, >, * or ~ has any meaning: they are ordinary characters.
 */
std::optional<std::vector<std::string>> splitCommandTemplate(std::string_view commandTemplate,
                                                             std::string* error = nullptr);

/*
 * Expands a template into an argument vector: the template is split first (splitCommandTemplate),
 * then %f (file), %l (line), %c (column) and %% (a percent sign) are replaced inside each argument,
 * so whatever the file name contains (spaces, quotes, ;, $(...), newlines) stays inside the one
 * argument it was placed in. A file name starting with '-' gets a "./" prefix so an editor cannot
 * read it as an option. Other %x sequences are kept as they are. Fails on a split error or an
 * empty command.
 */
std::optional<std::vector<std::string>> expandEditorCommand(std::string_view commandTemplate,
                                                            const SourceLocation& location,
                                                            std::string* error = nullptr);

/*
 * Runs argv[0] (looked up in PATH when it has no '/') with exactly these arguments through
 * posix_spawnp, never through a shell, optionally in `workingDirectory`, and waits for it.
 * Returns its exit status, 128 + signal when killed, or -1 when it could not be started. For the
 * CLI and tests; the GUI starts editors detached with QProcess.
 */
int runCommandAndWait(const std::vector<std::string>& argv, const std::string& workingDirectory = {});

} // namespace ws
