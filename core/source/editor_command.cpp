#include "source/editor_command.h"

#include <cerrno>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace ws {

const std::vector<EditorPreset>& editorPresets() {
    static const std::vector<EditorPreset> presets = {
        {"system", "System default", "xdg-open %f"},
        {"vscode", "Visual Studio Code", "code -g %f:%l:%c"},
        {"vscodium", "VSCodium", "codium -g %f:%l:%c"},
        {"cursor", "Cursor", "cursor -g %f:%l:%c"},
        {"clion", "CLion", "clion --line %l --column %c %f"},
        {"pycharm", "PyCharm", "pycharm --line %l --column %c %f"},
        {"qtcreator", "Qt Creator", "qtcreator -client %f:%l:%c"},
        {"sublime", "Sublime Text", "subl %f:%l:%c"},
        {"kate", "Kate", "kate --line %l --column %c %f"},
        {"gedit", "gedit", "gedit +%l:%c %f"},
        {"emacs", "Emacs (emacsclient)", "emacsclient -n +%l:%c %f"},
        {"vim", "Vim (in a terminal)", "x-terminal-emulator -e vim +%l %f"},
        {"nvim", "Neovim (in a terminal)", "x-terminal-emulator -e nvim +%l %f"},
    };
    return presets;
}

const EditorPreset* findEditorPreset(std::string_view id) {
    for (const EditorPreset& p : editorPresets())
        if (id == p.id) return &p;
    return nullptr;
}

std::optional<std::vector<std::string>> splitCommandTemplate(std::string_view t, std::string* error) {
    std::vector<std::string> args;
    std::string cur;
    bool inArg = false; // distinguishes '' (an empty argument) from no argument
    size_t i = 0;
    auto fail = [&](const char* msg) -> std::optional<std::vector<std::string>> {
        if (error) *error = msg;
        return std::nullopt;
    };
    while (i < t.size()) {
        const char c = t[i];
        if (c == ' ' || c == '\t') {
            if (inArg) args.push_back(std::move(cur));
            cur.clear();
            inArg = false;
            ++i;
        } else if (c == '\'') {
            const size_t close = t.find('\'', i + 1);
            if (close == std::string_view::npos) return fail("unterminated single quote");
            cur.append(t.substr(i + 1, close - i - 1));
            inArg = true;
            i = close + 1;
        } else if (c == '"') {
            ++i;
            bool closed = false;
            while (i < t.size()) {
                if (t[i] == '"') {
                    closed = true;
                    ++i;
                    break;
                }
                if (t[i] == '\\' && i + 1 < t.size() && (t[i + 1] == '"' || t[i + 1] == '\\')) ++i;
                cur.push_back(t[i++]);
            }
            if (!closed) return fail("unterminated double quote");
            inArg = true;
        } else if (c == '\\') {
            if (i + 1 >= t.size()) return fail("trailing backslash");
            cur.push_back(t[i + 1]);
            inArg = true;
            i += 2;
        } else {
            cur.push_back(c);
            inArg = true;
            ++i;
        }
    }
    if (inArg) args.push_back(std::move(cur));
    return args;
}

std::optional<std::vector<std::string>> expandEditorCommand(std::string_view commandTemplate,
                                                            const SourceLocation& loc, std::string* error) {
    auto args = splitCommandTemplate(commandTemplate, error);
    if (!args) return std::nullopt;
    if (args->empty() || (*args)[0].empty()) {
        if (error) *error = "empty command";
        return std::nullopt;
    }
    const std::string file = !loc.file.empty() && loc.file[0] == '-' ? "./" + loc.file : loc.file;
    const std::string line = std::to_string(loc.line > 0 ? loc.line : 1);
    const std::string column = std::to_string(loc.column > 0 ? loc.column : 1);
    for (std::string& a : *args) {
        std::string out;
        out.reserve(a.size() + file.size());
        for (size_t i = 0; i < a.size(); ++i) {
            if (a[i] != '%' || i + 1 == a.size()) {
                out.push_back(a[i]);
                continue;
            }
            switch (a[i + 1]) {
            case 'f':
                out += file;
                break;
            case 'l':
                out += line;
                break;
            case 'c':
                out += column;
                break;
            case '%':
                out.push_back('%');
                break;
            default:
                out.append(a, i, 2);
                break;
            }
            ++i;
        }
        a = std::move(out);
    }
    return args;
}

int runCommandAndWait(const std::vector<std::string>& argv, const std::string& workingDirectory) {
    if (argv.empty()) return -1;
    std::vector<char*> cargv;
    cargv.reserve(argv.size() + 1);
    for (const std::string& a : argv)
        cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!workingDirectory.empty()) posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

} // namespace ws
