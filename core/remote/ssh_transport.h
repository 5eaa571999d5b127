#pragma once

#include "remote/http_client.h"
#include "remote/remote_listing.h"
#include "remote/remote_url.h"

#include <string>

namespace ws {

/*
 * ssh:// objects (issue #26, File > Open Remote Folder): the three things fetchRemoteObject and
 * listRemoteFolder ask of a transport, done by the user's own OpenSSH client (their keys, agent,
 * known_hosts, ~/.ssh/config aliases and ProxyJump; BatchMode, so nothing prompts and no password is
 * asked or kept; WARPSCOPE_SSH replaces `ssh` as for remote capture) running POSIX tools on the host:
 *   head      `stat -L -c '%s %Y' PATH`: the size, and size-mtime as the ETag (a changed file is
 *             fetched again, an unchanged one opens from the cache);
 *   download  `tail -c +N PATH` into the `.part` file, so an interrupted fetch resumes where it
 *             stopped, with progress and cancel;
 *   list      `find -L PATH -type f -printf '%s %T@ %p\n'`: every file, which listRemoteFolder
 *             groups into runs by folder as it does a bucket's objects.
 * The replies are HttpResponse / HttpDownload as the HTTP transports give them: status 200, 404 (no
 * such file), 403 (permission) or a network error (ssh's own failure, exit status 255, explained in
 * one sentence: unknown host key, refused login, unknown or unreachable host).
 */
HttpResponse sshHead(const RemoteUrl& url);
HttpDownload sshDownload(const RemoteUrl& url, const std::string& partPath, const HttpProgress& progress,
                         const std::function<void(uint64_t)>& written);
// The files under the folder (objects only; the caller groups them into runs).
RemoteListing listSshFolder(const RemoteUrl& url);

} // namespace ws
