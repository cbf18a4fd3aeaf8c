-- pdnkit DuckDB schema (contract: columns are only ever added, never renamed; a database made
-- by an older pdnkit is brought up to date by pdnkit upgrade, on a copy, and read commands
-- refuse it until then). These comments are the one description of the tables: docs/schema.md
-- is generated from them.
-- Keys: files.file_id; games.game_id; (game_id, ply) for moves and position_bits.
-- ply 0 in positions = the starting position; ply 1 = after the first move.

CREATE SEQUENCE IF NOT EXISTS file_id_seq START 1;
CREATE SEQUENCE IF NOT EXISTS game_id_seq START 1;

-- The ids of files and games come from the sequences above and nothing else writes them, so
-- neither table declares a primary key: the key's index cost a 64 KB block in every database
-- file and an index update per game at import (a database made with the key keeps it).

-- One row per imported file, that is per distinct content: the same bytes under another name
-- are the same file (file_paths keeps every name).
CREATE TABLE IF NOT EXISTS files (
    file_id      BIGINT NOT NULL,       -- the file's id (games.file_id, findings.file_id)
    path         VARCHAR NOT NULL,      -- as given on import (absolute)
    sha256       VARCHAR NOT NULL,      -- content hash: re-import of the same bytes is a no-op
    size         BIGINT NOT NULL,       -- bytes
    encoding     VARCHAR,               -- utf-8, utf-8-sig, cp1252, cp1251, ...
    games        INTEGER NOT NULL,      -- games read from the file (parsed or not)
    imported_at  TIMESTAMP NOT NULL     -- when the file was loaded
);

-- One row per game of every file, parsed or not: a game that cannot be read keeps its raw
-- text and its findings. Tags are read under any name the tag mapping knows (pdn/tags.py).
CREATE TABLE IF NOT EXISTS games (
    game_id         BIGINT NOT NULL,    -- the game's id (moves, positions, findings refer to it)
    file_id         BIGINT NOT NULL,    -- files.file_id
    game_index      INTEGER NOT NULL,   -- 0-based within the file
    line            INTEGER,            -- first line of the game in the file
    variant         VARCHAR,            -- canonical rules name (international, russian, ...)
    gametype        INTEGER,            -- PDN GameType number
    edition         VARCHAR,            -- rules edition used for draw rules (e.g. eda-1991)
    fen             VARCHAR,            -- the FEN tag as written (a set-up start); NULL without one
    event           VARCHAR,            -- Event tag, or its Italian/Dutch/Russian name (pdn/tags.py)
    site            VARCHAR,            -- Site tag (Luogo, Plaats, Lieu ...)
    date            DATE,               -- when the Date tag is a date (first day of a range)
    date_raw        VARCHAR,            -- the Date tag as written
    year            INTEGER,            -- year when known (also from partial dates)
    -- what is known of the date (pdn/dates.py), from the Date tag, else the year: a partial
    -- date is the span of its month or year, a season (1999/00) or a range its whole span.
    -- Sort by date_first, filter by the span: the filters keep a game whose span meets theirs
    date_first      DATE,               -- the first day the date allows (NULL: no date, no year)
    date_last       DATE,               -- the last day it allows
    date_precision  VARCHAR,            -- day | month | year: the finest part written
    date_text       VARCHAR,            -- the date as every table shows it: ISO 8601 at its
                                        -- precision (2003-03-15, 2003-03, 1841), a span as an
                                        -- interval (1999/2000); a Date tag that is no date and
                                        -- names no year, as written
    round           VARCHAR,            -- Round tag (Turno, Ronde ...)
    white           VARCHAR,            -- White tag (Bianco, Wit, Белые ...; P1 where White begins)
    black           VARCHAR,            -- Black tag (Nero, Zwart, Черные ...)
    result          VARCHAR,            -- normalised, White first: 1-0, 0-1, 1/2-1/2, * (NULL: none)
    result_raw      VARCHAR,            -- the result as written (tag, else terminator)
    white_rating    INTEGER,            -- WhiteElo or WhiteRating tag
    black_rating    INTEGER,            -- BlackElo or BlackRating tag
    tags            MAP(VARCHAR, VARCHAR),  -- every tag as written (first one wins on duplicates)
    plies           INTEGER,            -- moves in the main line as recorded
    replayed_plies  INTEGER,            -- how far replay got
    status          VARCHAR,            -- ok | warning | error | unparsed
    outcome         VARCHAR,            -- white | black | draw | unknown
    draw_basis      VARCHAR,            -- draw rule that backs a drawn result, NULL otherwise
    moves_hash      VARCHAR,            -- hash of the canonical main-line moves (+ start FEN)
    final_fen       VARCHAR,            -- the position after the last replayed ply
    raw_pdn         VARCHAR USING COMPRESSION zstd, -- the game's text exactly as in the file
    start_is_initial BOOLEAN,           -- starts from the variant's initial position: no set-up,
                                        -- or a FEN equal to it (side to move included); NULL:
                                        -- a set-up that could not be read. `fen` stays as written
    -- the opening by position (pdnkit.openings: the deepest table entry the game reached)
    opening_code    VARCHAR,            -- the deepest ballot or code: ACF 126, 11-man 25, I-12
    opening_name    VARCHAR,            -- the deepest named entry: Old Fourteenth, Кол
    opening_ply     INTEGER,            -- the ply at which the game reached its deepest entry
    opening_family  VARCHAR,            -- the table of opening_code: acf-3move, 2move, 11man ...
    opening_mirrored BOOLEAN,           -- read with the colours swapped (the other side began)
    novelty_ply     INTEGER,            -- the first ply no earlier game reached (NULL: none)
    novelty_from    BIGINT,             -- the earlier game it deviated from (game_id)
    opening         VARCHAR,            -- Opening tag (Italian Apertura, Russian Debut ...)
    result_source   VARCHAR,            -- where result_raw comes from: tag | terminator | NULL
    raw_pieces      INTEGER,            -- NULL: raw_pdn is the whole text; else raw_pdn is NULL
                                        -- and the text is in this many raw_pieces rows
    -- copies of one game (pdnkit.store.copies; docs/duplicates.md): statistics read the
    -- games whose duplicate_of is NULL unless --all-copies
    duplicate_of    BIGINT,             -- the game_id of the record that stands for this game's
                                        -- group of copies; NULL: a canonical or unique game
    duplicate_kind  VARCHAR             -- how this copy differs from that record: identical |
                                        -- tags | annotated | prefix | ruled; NULL where
                                        -- duplicate_of is
);

-- The text of a game too long for one row (over 1,000,000 characters, e.g. one with a huge
-- comment): in pieces of at most 8,192 characters, in order (piece 0 first). `pdnkit export`
-- writes such a game whole; string_agg(text, '' ORDER BY piece) gives it back in SQL.
CREATE TABLE IF NOT EXISTS raw_pieces (
    game_id      BIGINT NOT NULL,       -- the game (games.game_id) whose raw_pdn is NULL
    piece        INTEGER NOT NULL,      -- 0-based
    text         VARCHAR NOT NULL       -- at most 8,192 characters of the game's text
);

-- The moves of every game, stored compactly in move_rows and read through the moves view:
-- what a row's other columns already say is not stored again (a numeric notation the squares
-- spell, a canonical form equal to the notation, a quiet move's path, the move number the ply
-- implies, the capture counts).
CREATE TABLE IF NOT EXISTS move_rows (
    game_id         BIGINT NOT NULL,    -- games.game_id
    ply             INTEGER NOT NULL,   -- 1-based
    number_offset   INTEGER,            -- move_number minus the number the ply implies
    side            VARCHAR,            -- W | B
    notation        VARCHAR,            -- as written; NULL: numeric_move(origin, destination, captured)
    canonical       VARCHAR,            -- NULL: equal to notation; '': none (not replayed)
    origin          INTEGER,            -- PDN square numbers
    destination     INTEGER,            -- PDN square number
    path            INTEGER[],          -- NULL: [origin, destination]
    captured        INTEGER[],          -- captured squares, in capture order
    promotes        BOOLEAN,            -- the move crowns a man
    piece           VARCHAR,            -- man | king (NULL if not replayed)
    nags            INTEGER[],          -- numeric annotation glyphs ($n)
    comment         VARCHAR,            -- the comments after the move
    replayed        BOOLEAN,            -- the move was replayed (false after an illegal move)
    line            INTEGER             -- line of the move in the file
);

-- The move number a ply implies: White's plies are odd when White moves first, even (and
-- one move later) when Black does.
CREATE MACRO IF NOT EXISTS implied_move_number(ply, side) AS
    (ply + 1) // 2 + CASE WHEN side = 'W' AND ply % 2 = 0 THEN 1 ELSE 0 END;

-- A move in numeric notation from its squares: 32-28, 28x19 (a capture: pieces taken).
CREATE MACRO IF NOT EXISTS numeric_move(origin, destination, captured) AS
    origin::VARCHAR || CASE WHEN len(captured) > 0 THEN 'x' ELSE '-' END || destination::VARCHAR;

-- The notation and canonical form of a move_rows row, and the move as the statistics show
-- it (canonical, else as written). Queries that join move_rows to a few rows call these after
-- the join (the moves view computes them for every row it reads).
CREATE MACRO IF NOT EXISTS move_notation(notation, origin, destination, captured) AS
    coalesce(notation, numeric_move(origin, destination, captured));
CREATE MACRO IF NOT EXISTS move_canonical(canonical, notation, origin, destination, captured) AS
    CASE WHEN canonical IS NULL THEN move_notation(notation, origin, destination, captured)
         WHEN canonical = '' THEN NULL ELSE canonical END;
CREATE MACRO IF NOT EXISTS move_text(canonical, notation, origin, destination, captured) AS
    CASE WHEN canonical IS NULL OR canonical = ''
         THEN move_notation(notation, origin, destination, captured) ELSE canonical END;

-- One row per ply of the main line (the columns of the moves table of schema version 2).
CREATE VIEW IF NOT EXISTS moves AS
SELECT r.game_id,
       r.ply,                                              -- 1-based
       r.number_offset + implied_move_number(r.ply, r.side) AS move_number, -- the number of the move in the game
       r.side,                                             -- W | B
       move_notation(r.notation, r.origin, r.destination, r.captured)
           AS notation,                                    -- as written in the file
       move_canonical(r.canonical, r.notation, r.origin, r.destination, r.captured)
           AS canonical,                                   -- PDN 3.0 form (NULL if not replayed)
       r.origin, r.destination,                            -- PDN square numbers
       coalesce(r.path, [r.origin, r.destination]) AS path, -- every square visited, origin first
       r.captured,
       len(r.captured)::INTEGER AS captured_count,         -- pieces taken
       CASE WHEN r.replayed THEN len(r.captured) > 0 END AS is_capture, -- NULL if not replayed
       r.promotes,
       r.piece,                                            -- man | king (NULL if not replayed)
       r.nags, r.comment, r.replayed, r.line
FROM move_rows r;

-- Positions as square bitboards: bit n-1 of wm/wk/bm/bk is square n (PDN numbering), so a
-- set of squares is a plain integer (1 << (n - 1) per square). The UBIGINT columns hold
-- squares 1-64, every square of every board but 12x12; there (72 squares) squares 65 and up
-- are in the *_high columns (bit n-65 for square n), NULL on the smaller boards. The
-- positions view gives each bitboard whole (HUGEINT), with the FEN and key derived.
CREATE TABLE IF NOT EXISTS position_bits (
    game_id      BIGINT NOT NULL,       -- games.game_id
    ply          INTEGER NOT NULL,      -- 0 = starting position
    layout       UTINYINT NOT NULL,     -- layouts.layout: square names and FEN order
    black        BOOLEAN NOT NULL,      -- Black to move
    wm           UBIGINT NOT NULL,      -- white men (squares 1-64)
    wk           UBIGINT NOT NULL,      -- white kings
    bm           UBIGINT NOT NULL,      -- black men
    bk           UBIGINT NOT NULL,      -- black kings
    wm_high      UBIGINT,               -- white men on squares 65 and up (NULL: none on the board)
    wk_high      UBIGINT,               -- white kings on squares 65 and up
    bm_high      UBIGINT,               -- black men on squares 65 and up
    bk_high      UBIGINT                -- black kings on squares 65 and up
);

-- The positions of the first four plies of every game (ply 0 to 4), copied from
-- position_bits (the same columns): the positions most games share (the start, the first
-- moves) read without reading every position (pdnkit.store.posindex).
CREATE TABLE IF NOT EXISTS early_positions (
    game_id      BIGINT NOT NULL,       -- games.game_id
    ply          INTEGER NOT NULL,      -- 0 to 4
    layout       UTINYINT NOT NULL,     -- layouts.layout
    black        BOOLEAN NOT NULL,      -- Black to move
    wm           UBIGINT NOT NULL,      -- white men (squares 1-64), as position_bits
    wk           UBIGINT NOT NULL,      -- white kings
    bm           UBIGINT NOT NULL,      -- black men
    bk           UBIGINT NOT NULL,      -- black kings
    wm_high      UBIGINT,               -- white men on squares 65 and up (NULL: none)
    wk_high      UBIGINT,               -- white kings on squares 65 and up
    bm_high      UBIGINT,               -- black men on squares 65 and up
    bk_high      UBIGINT                -- black kings on squares 65 and up
);

-- Where each later position (ply 5 on) was reached, to find a position without reading
-- every one (pdnkit.store.posindex): the low 24 bits of its position key and the block of
-- 1,024 game numbers of a game that reached it, each pair once, sorted by key (the import
-- appends a file's pairs sorted and sorts the whole table again as the appended rows grow).
-- It only narrows a search: the bitboards of position_bits decide.
CREATE TABLE IF NOT EXISTS position_index (
    key          UINTEGER NOT NULL,     -- positions.position_key & 0xFFFFFF
    game_block   UINTEGER NOT NULL      -- game_id >> 10: the games 1024 * game_block and on
);

-- The squares of each game, to test a pattern on one row a game before its positions
-- (pdnkit.store.gamesquares): each bitboard of position_bits OR-ed over the game's
-- positions (a square where such a piece stood at least once), and the occupancy AND-ed (a
-- square occupied in every position). It only narrows a search: the bitboards decide.
CREATE TABLE IF NOT EXISTS game_squares (
    game_id      BIGINT NOT NULL,       -- games.game_id
    layout       UTINYINT NOT NULL,     -- layouts.layout
    wm           UBIGINT NOT NULL,      -- squares 1-64 where a white man stood
    wk           UBIGINT NOT NULL,      -- ... a white king
    bm           UBIGINT NOT NULL,      -- ... a black man
    bk           UBIGINT NOT NULL,      -- ... a black king
    occ          UBIGINT NOT NULL,      -- squares 1-64 occupied in every position
    wm_high      UBIGINT,               -- wm on squares 65 and up (NULL: none)
    wk_high      UBIGINT,               -- wk on squares 65 and up
    bm_high      UBIGINT,               -- bm on squares 65 and up
    bk_high      UBIGINT,               -- bk on squares 65 and up
    occ_high     UBIGINT                -- occ on squares 65 and up (NULL: a smaller board)
);

-- The squares of each stretch of 16 plies of a game (plies 0-15, 16-31, ...) where a king
-- stood, as game_squares keeps them for the whole game (without the occupancy): a pattern
-- with a king can only be met in such a stretch, and its pieces must have stood on their
-- squares within the same few moves, so a common pattern with a king names far fewer games
-- here (pdnkit.store.gamesquares). It only narrows a search: the bitboards decide.
CREATE TABLE IF NOT EXISTS game_stretches (
    game_id      BIGINT NOT NULL,       -- games.game_id
    stretch      USMALLINT NOT NULL,    -- the plies 16 * stretch to 16 * stretch + 15
    layout       UTINYINT NOT NULL,     -- layouts.layout
    wm           UBIGINT NOT NULL,      -- squares 1-64 where a white man stood in the stretch
    wk           UBIGINT NOT NULL,      -- ... a white king
    bm           UBIGINT NOT NULL,      -- ... a black man
    bk           UBIGINT NOT NULL,      -- ... a black king
    wm_high      UBIGINT,               -- wm on squares 65 and up (NULL: none)
    wk_high      UBIGINT,               -- wk on squares 65 and up
    bm_high      UBIGINT,               -- bm on squares 65 and up
    bk_high      UBIGINT                -- bk on squares 65 and up
);

-- The games numbered up to the last one counted in tree_counts and opening_counts that were
-- copies (not counted) when the counts were settled: what a later import compares the
-- copies of now with, to count only the games whose state changed (pdnkit.store.countdelta).
CREATE TABLE IF NOT EXISTS counts_copies (
    game_id      BIGINT NOT NULL        -- games.game_id
);

-- The opening tree of the first plies, counted at import (pdnkit.store.opencounts): per
-- variant, position (first reached by a game at ply 0 to 4) and move played next (NULL: none
-- among the first plies; open: the position of ply 4, its next move not counted), the
-- position after the move (a_*) and the canonical games' counts. Kept up to date with the
-- games (pdnkit_meta 'opening_counts_stamp'); the readers scan when it is not.
CREATE TABLE IF NOT EXISTS tree_counts (
    variant      VARCHAR,               -- games.variant
    black        BOOLEAN NOT NULL,      -- Black to move
    wm           HUGEINT NOT NULL,      -- white men (every square)
    wk           HUGEINT NOT NULL,      -- white kings
    bm           HUGEINT NOT NULL,      -- black men
    bk           HUGEINT NOT NULL,      -- black kings
    open         BOOLEAN NOT NULL,      -- first reached at ply 4: the next move not counted
    move         VARCHAR,               -- the move played next, as the statistics show it
    side         VARCHAR,               -- W | B: who played it
    a_black      BOOLEAN,               -- the position after the move (NULL: not replayed)
    a_wm         HUGEINT,               -- its white men
    a_wk         HUGEINT,               -- its white kings
    a_bm         HUGEINT,               -- its black men
    a_bk         HUGEINT,               -- its black kings
    a_layout     UTINYINT,              -- layouts.layout of the position after the move
    games        BIGINT NOT NULL,       -- canonical games
    white_wins   BIGINT NOT NULL,       -- of them won by White
    draws        BIGINT NOT NULL,       -- drawn
    black_wins   BIGINT NOT NULL,       -- won by Black
    unknown      BIGINT NOT NULL,       -- without a known result
    plies_sum    BIGINT NOT NULL,       -- sum of games.plies (where known)
    plies_n      BIGINT NOT NULL,       -- games whose plies are known
    first_game   BIGINT NOT NULL        -- the lowest game_id counted
);

-- The games of each opening sequence of 1 to 4 plies from the initial position, as
-- pdnkit stats openings groups them (pdnkit.store.opencounts): canonical games only.
CREATE TABLE IF NOT EXISTS opening_counts (
    variant      VARCHAR,               -- games.variant
    plies        INTEGER NOT NULL,      -- 1 to 4
    opening      VARCHAR,               -- the moves (canonical, else as written), spaced
    games        BIGINT NOT NULL,       -- canonical games
    white_wins   BIGINT NOT NULL,       -- of them won by White
    draws        BIGINT NOT NULL,       -- drawn
    black_wins   BIGINT NOT NULL,       -- won by Black
    unknown      BIGINT NOT NULL,       -- without a known result
    plies_sum    BIGINT NOT NULL,       -- sum of games.plies (where known)
    plies_n      BIGINT NOT NULL        -- games whose plies are known
);

-- One row per board and notation: names[n] is the FEN name of square n.
CREATE TABLE IF NOT EXISTS layouts (
    layout     UTINYINT NOT NULL,       -- position_bits.layout
    squares    INTEGER NOT NULL,        -- playing squares of the board
    names      VARCHAR[] NOT NULL,      -- names[n]: the FEN name of square n (28, c3 ...)
    fen_order  INTEGER[] NOT NULL       -- square numbers in FEN order
);

-- One colour's FEN field (without its W/B letter) from its men and kings.
CREATE MACRO IF NOT EXISTS fen_field(fen_order, names, men, kings) AS
    array_to_string(list_transform(
        list_filter(fen_order, lambda s: ((men | kings) >> (s - 1)) & 1 = 1),
        lambda s: CASE WHEN (kings >> (s - 1)) & 1 = 1 THEN 'K' ELSE '' END || names[s]), ',');

-- The position key of square bitboards: equal for equal placement and side to move, a 64-bit
-- mix of the white, black and king squares (pdnkit.rows.bitboards.bits_key computes the
-- same in Python). Derived, not stored: a search for a position compares the bitboards.
CREATE MACRO IF NOT EXISTS key_word(v, seed, mul) AS
    xor((xor(v, seed) * mul) >> 64, (xor(v, seed) * mul) & 18446744073709551615::UHUGEINT);
CREATE MACRO IF NOT EXISTS key_low(v) AS (v & 18446744073709551615::HUGEINT)::UHUGEINT;
CREATE MACRO IF NOT EXISTS key_mixed(w, b, k, black) AS
    xor(xor(xor(xor(key_word(key_low(w), 11562461410679940143::UHUGEINT, 16646288086500911323::UHUGEINT),
                    key_word(key_low(b), 10285213230658275043::UHUGEINT, 6384245875588680899::UHUGEINT)),
                key_word(key_low(k), 2129725606500045391::UHUGEINT, 11400714819323198485::UHUGEINT)),
            CASE WHEN (w | b) >> 64 = 0 THEN 0::UHUGEINT ELSE
                xor(xor(key_word((w >> 64)::UHUGEINT, 14029467366897019727::UHUGEINT, 1609587929392839161::UHUGEINT),
                        key_word((b >> 64)::UHUGEINT, 15485907386658061715::UHUGEINT, 18397679294719823053::UHUGEINT)),
                    key_word((k >> 64)::UHUGEINT, 14181476777654086739::UHUGEINT, 13787848793156543929::UHUGEINT)) END),
        CASE WHEN black THEN 10723151780598845931::UHUGEINT ELSE 0::UHUGEINT END);
CREATE MACRO IF NOT EXISTS key_signed(y) AS
    CASE WHEN y >= 9223372036854775808::UHUGEINT THEN (y::HUGEINT - 18446744073709551616::HUGEINT)::BIGINT ELSE y::BIGINT END;
CREATE MACRO IF NOT EXISTS position_key_of(wm, wk, bm, bk, black) AS
    key_signed(key_word(key_mixed(wm | wk, bm | bk, wk | bk, black), 2685821657736338717::UHUGEINT, 11507291218515648293::UHUGEINT));

-- A whole square bitboard from its two columns (squares 1-64, squares 65 and up).
CREATE MACRO IF NOT EXISTS full_bits(low, high) AS
    (low::HUGEINT | (coalesce(high, 0::UBIGINT)::HUGEINT << 64));

-- The positions of every game as rows (ply 0 = the start): the bitboards, and the FEN, side
-- and piece counts derived from them (wm, wk, bm, bk whole: HUGEINT).
CREATE VIEW IF NOT EXISTS positions AS
SELECT p.game_id, p.ply,
       CASE WHEN p.black THEN 'B' ELSE 'W' END || ':W' || fen_field(l.fen_order, l.names, p.wm, p.wk)
           || ':B' || fen_field(l.fen_order, l.names, p.bm, p.bk) AS fen, -- PDN 3.0 FEN, derived
       position_key_of(p.wm, p.wk, p.bm, p.bk, p.black) AS position_key, -- signed 64 bits: equal for equal placement and side to move (transpositions)
       CASE WHEN p.black THEN 'B' ELSE 'W' END AS side,    -- to move: W | B
       bit_count(p.wm)::INTEGER AS white_men, bit_count(p.wk)::INTEGER AS white_kings, -- piece counts
       bit_count(p.bm)::INTEGER AS black_men, bit_count(p.bk)::INTEGER AS black_kings, -- piece counts
       p.wm, p.wk, p.bm, p.bk,                             -- whole square bitboards (HUGEINT; wm | (wm_high << 64))
       p.black, p.layout
FROM (SELECT game_id, ply, layout, black, full_bits(wm, wm_high) AS wm,
             full_bits(wk, wk_high) AS wk, full_bits(bm, bm_high) AS bm,
             full_bits(bk, bk_high) AS bk
      FROM position_bits) p
LEFT JOIN layouts l ON l.layout = p.layout;

-- Player identities: each alias (a name as written in White/Black) stands for one player
-- (pdnkit players alias); every statistic reads names through player_name().
CREATE TABLE IF NOT EXISTS player_aliases (
    alias        VARCHAR NOT NULL,      -- a name as written (trimmed)
    name         VARCHAR NOT NULL       -- the player it stands for
);

-- The player a White/Black name stands for: its alias target, else the trimmed name; NULL
-- for placeholders that name no player (White, Black, Red, ?, -, empty, N.N., unknown).
-- The lookup reads the aliases under names no query uses (pdnkit_pa, pdnkit_alias,
-- pdnkit_target): the argument is written into the subquery, so player_name(a.name) or
-- player_name(alias) must not find the subquery's own columns.
CREATE MACRO IF NOT EXISTS player_name(n) AS coalesce(
    (SELECT any_value(pdnkit_pa.pdnkit_target)
     FROM (SELECT alias AS pdnkit_alias, name AS pdnkit_target FROM player_aliases) pdnkit_pa
     WHERE pdnkit_pa.pdnkit_alias = trim(n)),
    CASE WHEN n IS NULL OR lower(trim(n)) IN ('', '?', '??', '-', 'white', 'black', 'red',
        'n.n.', 'n.n', 'nn', 'unknown', 'anonymous') THEN NULL ELSE trim(n) END);

-- One row per finding: a problem (or a fact worth knowing) about a game or a file, with its
-- place. pdnkit explain CODE says what a code means and how to fix the game.
CREATE TABLE IF NOT EXISTS findings (
    game_id      BIGINT,                -- NULL for file-level findings
    file_id      BIGINT NOT NULL,       -- files.file_id
    game_index   INTEGER,               -- 0-based within the file (games.game_index)
    code         VARCHAR NOT NULL,      -- a code of pdnkit.findings.CODES, e.g. missed-capture
    severity     VARCHAR NOT NULL,      -- info | warning | error
    message      VARCHAR,               -- what is wrong, in words
    line         INTEGER,               -- line in the file
    col          INTEGER,               -- column in the line
    ply          INTEGER,               -- 1-based ply of the main line (NULL: header or file)
    move         VARCHAR,               -- the move as written
    fen          VARCHAR,               -- the position before the move
    in_variation BOOLEAN,               -- found in a variation, not the main line
    details      VARCHAR                -- JSON text
);

-- Engine analysis (pdnkit analyse): one row per position of a game's main line (ply 0 = the
-- start, ply k = after ply k) and analysis key: the engine's name, its version and the
-- settings it ran with. Running the same analysis again finds every row there and writes
-- nothing; another engine or other settings make rows of their own. Scores are in men from
-- White's point of view: the engine's judgement (scale positional) or the material the
-- built-in search's best line reaches (scale material: a king is 3 men where kings fly, 1.5
-- where they do not); +-100 is a decided position (+-99.97: decided in 3 plies).
CREATE TABLE IF NOT EXISTS evals (
    game_id        BIGINT NOT NULL,     -- games.game_id
    ply            INTEGER NOT NULL,    -- 0 = the start, k = after ply k (as position_bits)
    engine         VARCHAR NOT NULL,    -- the engine's name: dame, scan, builtin ...
    engine_version VARCHAR NOT NULL,    -- its version as it says ('' when it says none)
    settings       VARCHAR NOT NULL,    -- JSON: {"depth":6}, {"movetime":0.5}, "params" set
    scale          VARCHAR NOT NULL,    -- positional (an engine's judgement) | material
    score          DOUBLE,              -- men, White's point of view
    depth          INTEGER,             -- the depth searched (0: a position without a move)
    best           VARCHAR,             -- the engine's move, as PDN in the game's notation
    pv             VARCHAR,             -- its line from here: PDN moves separated by spaces
    nodes          BIGINT,              -- positions the engine searched (NULL: not said)
    material       DOUBLE,              -- the material balance here, men, White's view
    pv_material    DOUBLE               -- the balance at the end of the line (captures still
                                        -- pending there played out), men, White's view
);

-- One row per rules record pdnkit knows (a variant and its edition), as pdnkit variants lists
-- them.
CREATE TABLE IF NOT EXISTS variants (
    name            VARCHAR,            -- canonical name (games.variant)
    edition         VARCHAR,            -- rules edition (games.edition)
    title           VARCHAR,            -- e.g. International draughts (FMJD)
    gametype        INTEGER,            -- PDN GameType number
    gametype_full   VARCHAR,            -- e.g. 20,W,10,10,N2,0
    aliases         VARCHAR[],          -- other names accepted for it (draughts, checkers ...)
    board           VARCHAR,            -- e.g. 10x10
    first_mover     VARCHAR,            -- W | B
    notation        VARCHAR,            -- numeric | alphanumeric
    settings        VARCHAR             -- JSON of every rules field
);

-- Draw and endgame rules that became active during a game (one row per activation).
CREATE TABLE IF NOT EXISTS rule_events (
    game_id       BIGINT NOT NULL,      -- games.game_id
    rule          VARCHAR NOT NULL,     -- e.g. fmjd-6.3, russian-7.2.4, wcdf-1.32.2, repetition
    article       VARCHAR,              -- rulebook article, e.g. "FMJD 6.3"
    automatic     BOOLEAN,              -- automatic draw (true) or a claim (false)
    start_ply     INTEGER,              -- ply after which the rule's count started (0 = start)
    limit_plies   INTEGER,              -- the rule's limit in plies
    deadline_ply  INTEGER,              -- ply at which the rule draws the game if nothing resets it
    reached_ply   INTEGER,              -- ply at which the limit was reached (NULL: never reached)
    end_ply       INTEGER               -- ply at which the rule stopped applying (reset or game end)
);

-- Every path a file's bytes were seen at: the same bytes under several names are one file
-- (one files row, its games loaded once) with one file_paths row per name.
CREATE TABLE IF NOT EXISTS file_paths (
    file_id      BIGINT NOT NULL,       -- files.file_id
    path         VARCHAR NOT NULL,      -- absolute
    first_seen   TIMESTAMP NOT NULL     -- the import that first met the file under this name
);

-- Opening tables a user loaded (pdnkit openings load): each classifies the games of its
-- variant beside the tables shipped with pdnkit (pdnkit.openings).
CREATE TABLE IF NOT EXISTS opening_tables (
    variant      VARCHAR NOT NULL,      -- canonical rules name
    family       VARCHAR NOT NULL,      -- the table's name (unique per variant)
    kind         VARCHAR NOT NULL,      -- ballot | code | name
    prefix       VARCHAR NOT NULL,      -- put before each code (full codes)
    source       VARCHAR,               -- the file it was loaded from, as given
    entries      INTEGER NOT NULL,      -- the table's rows (entries)
    loaded_at    TIMESTAMP NOT NULL,    -- when it was loaded
    table_csv    VARCHAR NOT NULL       -- the table's CSV text as loaded
);

-- Games whose opening columns an import has yet to bring up to date (their novelties and
-- their classification by loaded tables): filled with each file, emptied at the end of the
-- import a batch of games at a time (each batch's marks cleared in the transaction that
-- settles it); what an import stopped before its end leaves, the next import or
-- pdnkit upgrade settles.
CREATE TABLE IF NOT EXISTS opening_pending (
    game_id      BIGINT NOT NULL        -- a game loaded or changed by this import
);

-- Games whose group of copies an import has yet to bring up to date (pdnkit.store.copies):
-- filled with each file, and with the neighbours of a file's games before they are replaced;
-- emptied at the end of the import in one transaction (before opening_pending is settled);
-- what an import stopped before its end leaves, the next import or pdnkit upgrade settles.
CREATE TABLE IF NOT EXISTS copy_pending (
    game_id      BIGINT NOT NULL        -- a game loaded, or one whose group a removal changes
);

-- What a user said about two records (pdnkit rule-copies): the same game (grouped whatever
-- their moves and tags) or two games (never grouped). Records are named by their file's
-- content and their place in it, so a ruling holds as files are renamed or imported again.
CREATE TABLE IF NOT EXISTS copy_rulings (
    first_sha256  VARCHAR NOT NULL,     -- files.sha256 of the first record's file
    first_index   INTEGER NOT NULL,     -- its games.game_index (0-based)
    second_sha256 VARCHAR NOT NULL,     -- the second record's file
    second_index  INTEGER NOT NULL,     -- its game_index
    same          BOOLEAN NOT NULL,     -- true: one game; false: two games
    ruled_at      TIMESTAMP NOT NULL    -- when the ruling was made
);

-- pdnkit's own record of the database: schema_version, and the tables and columns it was
-- made with (a table or column missing later was dropped: the database is refused).
CREATE TABLE IF NOT EXISTS pdnkit_meta (
    key          VARCHAR PRIMARY KEY,   -- schema_version, columns
    value        VARCHAR                -- the version; the tables and their columns (JSON)
);
