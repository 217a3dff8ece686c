#pragma once

// The workspace file itself, inside the store: the schema and its migrations (one SQL step per
// version, all applied in one transaction), the checks a file passes before anything is written
// to it, and the mapping of SQLite's failures to WorkspaceError. Workspace::open() (workspace.h)
// runs these; nothing outside planner/store/ includes this header.

#include <filesystem>
#include <string>
#include <string_view>

#include "planner/store/sqlite_db.h"
#include "planner/store/workspace.h"

namespace tally {

// The steps of Workspace::open() and the error mapping of its reads and writes.
namespace store_detail {

// A WorkspaceError for a file that is refused and left as it was.
// `message` is a whole sentence that ends "It was left untouched; pick another file or start a
// new workspace."
WorkspaceError refuse(WorkspaceProblem problem, const std::filesystem::path& path, Text message);
bool is_disk_full_errno(int e);
bool is_permission_errno(int e);
// The problem a failed open or create of a file (errno `e`) is: read-only, disk full, or I/O.
WorkspaceProblem problem_of_errno(int e);
// Turns an SQLite failure during `doing` into a WorkspaceError naming the file and the problem.
WorkspaceError translate(const sqlite::Error& e, const std::filesystem::path& path,
                         const WorkspaceDoing& doing, bool writing);

// A file: URI for `path` with a query (sqlite.org/uri.html); everything but unreserved
// characters percent-encoded, so '?', '#' and '%' in a folder name stay part of the path.
std::string file_uri(const std::filesystem::path& path, std::string_view query);
// Looks at an existing file without writing to it: the SQLite header, then (through a read-only
// connection) its integrity, application id and schema version. Throws WorkspaceError, or
// sqlite::Error for a failure of SQLite itself.
void inspect_read_only(const std::filesystem::path& path, int busy_timeout_ms);
// Creates an empty file, failing if one exists. Returns false when another process was first.
bool create_empty_file(const std::filesystem::path& path);
// Brings a verified database to this build's schema, in one transaction. Returns the version it
// had.
int migrate(sqlite::Database& db, const std::filesystem::path& path);

}  // namespace store_detail

}  // namespace tally
