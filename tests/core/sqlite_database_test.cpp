#include "io/sqlite_database.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace ws;

namespace {
std::string tempFile(const char* name) {
    return std::string(::testing::TempDir()) + "/" + name + "." + std::to_string(::getpid());
}
} // namespace

TEST(SqliteDatabase, CreatesQueriesAndIntrospects) {
    const std::string path = tempFile("ws_sqlite_test.db");
    std::remove(path.c_str());
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(path, SqliteDatabase::Mode::ReadWriteCreate)) << db.error();
        ASSERT_TRUE(db.exec("CREATE TABLE t(a INTEGER, b TEXT, c BLOB); INSERT INTO t VALUES (1, 'x', NULL)"));
        SqliteStatement insert(db, "INSERT INTO t VALUES (?1, ?2, ?3)");
        insert.bind(1, int64_t(5));
        insert.bind(2, std::string_view("héllo"));
        insert.bindBlob(3, "\0\1\2", 3);
        EXPECT_FALSE(insert.step());
        EXPECT_TRUE(insert.ok()) << insert.error();
    }
    SqliteDatabase db;
    ASSERT_TRUE(db.open(path, SqliteDatabase::Mode::ReadOnly)) << db.error();
    EXPECT_TRUE(db.tableExists("t"));
    EXPECT_FALSE(db.tableExists("nope"));
    EXPECT_EQ(db.columns("t"), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(db.queryInt("SELECT sum(a) FROM t"), 6);
    SqliteStatement q(db, "SELECT b, c FROM t WHERE a = 5");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.text(0), "héllo");
    EXPECT_EQ(q.blob(1), std::string_view("\0\1\2", 3));
    // Read-only really is read-only.
    EXPECT_FALSE(db.exec("INSERT INTO t VALUES (9, 'y', NULL)"));
    std::remove(path.c_str());
}

TEST(SqliteDatabase, NonDatabaseFilesAreRefusedWithAReason) {
    const std::string path = tempFile("ws_not_a_db.sqlite");
    {
        std::ofstream out(path);
        out << "this is plain text pretending to be a database, long enough to have a header page......";
    }
    SqliteDatabase db;
    EXPECT_FALSE(db.open(path, SqliteDatabase::Mode::ReadOnly));
    EXPECT_FALSE(db.error().empty());
    EXPECT_FALSE(db.open("/nonexistent/dir/x.sqlite", SqliteDatabase::Mode::ReadOnly));
    EXPECT_FALSE(db.error().empty());
    std::remove(path.c_str());
}

TEST(SqliteDatabase, BadSqlFailsWithoutThrowing) {
    SqliteDatabase db;
    ASSERT_TRUE(db.open(":memory:", SqliteDatabase::Mode::ReadWriteCreate));
    SqliteStatement q(db, "SELEC nonsense");
    EXPECT_FALSE(q.ok());
    EXPECT_FALSE(q.step());
    EXPECT_FALSE(db.error().empty());
    EXPECT_FALSE(db.queryInt("SELECT 1 FROM missing_table").has_value());
}
