//! The catalogue of setups: one entry per game, with its aliases and arguments.

mod boards;
mod checker;
mod chess;
pub(crate) mod domino;
mod fen;
mod other_systems;
mod piecepack_checkers;
mod piecepack_chess;
mod piecepack_original;
mod piecepack_parts;
mod piecepack_traditional;
mod text;

use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::Row;

use checker as ck;
use other_systems as os;
use piecepack_checkers as pc;
use piecepack_chess as pch;
use piecepack_original as po;
use piecepack_traditional as pt;

pub(crate) type Build = fn(&mut Env) -> Result<Vec<Row>, SetupError>;

/// One setup and the names it answers to.
pub(crate) struct Game {
    pub system: &'static str,
    pub names: &'static [&'static str],
    /// (argument, default as the reference writes it).
    pub arguments: &'static [(&'static str, &'static str)],
    pub build: Build,
}

pub(crate) fn find(system: &str, name: &str) -> Option<&'static Game> {
    catalogue()
        .iter()
        .find(|game| game.system == system && game.names.contains(&name))
}

/// Colour names of bits and boards.
pub(crate) fn colour_suit(name: &str) -> Option<i32> {
    match name.to_ascii_lowercase().as_str() {
        "red" | "r" => Some(1),
        "black" | "k" => Some(2),
        "green" | "g" => Some(3),
        "blue" | "b" => Some(4),
        "yellow" | "y" => Some(5),
        "white" | "w" => Some(6),
        "cyan" => Some(7),
        "magenta" => Some(8),
        "orange" => Some(9),
        other => other.parse().ok(),
    }
}

const NONE: &[(&str, &str)] = &[];
const CHECKER_CELL: &[(&str, &str)] =
    &[("cell_width", "getOption(\"ppdf.checker_cell_width\", 1)")];
const SEED: &[(&str, &str)] = &[("seed", "NULL")];
const SEED_TILES: &[(&str, &str)] = &[("seed", "NULL"), ("tiles", "NULL")];
const SEED_COINS: &[(&str, &str)] = &[("seed", "NULL"), ("coins", "NULL")];
const SUBPACK: &[(&str, &str)] = &[("has_subpack", "FALSE")];
const MATCHSTICKS: &[(&str, &str)] = &[("has_matchsticks", "FALSE")];
const GO: &[(&str, &str)] = &[("nrows", "19L"), ("ncols", "nrows")];
const SMALL_GO: &[(&str, &str)] = &[("nrows", "15L"), ("ncols", "nrows")];
const REVERSI: &[(&str, &str)] = &[("nrows", "8L"), ("ncols", "nrows")];

fn stackpack_alice_chess(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::alice_chess_with(env, true)
}
fn stackpack_baroque_chess(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::baroque_chess_with(env, true)
}
fn stackpack_chaturaji(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::chaturaji_with(env, true)
}
fn stackpack_chess(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::chess_with(env, true)
}
fn stackpack_chess960(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::chess960_with(env, true)
}
fn stackpack_chinese_chess(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::chinese_chess_with(env, true)
}
fn stackpack_four_seasons_chess(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::four_seasons_chess_with(env, true)
}
fn stackpack_japanese_chess(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pch::japanese_chess_with(env, true)
}
fn stackpack_salta(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    pt::salta_with(env, true)
}

pub(crate) fn catalogue() -> &'static [Game] {
    const fn game(
        system: &'static str,
        names: &'static [&'static str],
        arguments: &'static [(&'static str, &'static str)],
        build: Build,
    ) -> Game {
        Game {
            system,
            names,
            arguments,
            build,
        }
    }
    static GAMES: &[Game] = &[
        // Setups that set nothing up.
        game("alquerque", &["none"], NONE, os::none),
        game("checker", &["none"], NONE, os::none),
        game("chess", &["none"], NONE, os::none),
        game("domino", &["none"], NONE, os::none),
        game("go", &["none"], NONE, os::none),
        game("marble", &["none"], NONE, os::none),
        game("morris", &["none"], NONE, os::none),
        game("piecepack", &["none"], NONE, os::none),
        game("stackpack", &["none"], NONE, os::none),
        // Alquerque boards.
        game("alquerque", &["alquerque"], NONE, os::alquerque),
        game("alquerque", &["baghchal"], NONE, os::baghchal),
        // Checkers.
        game(
            "checker",
            &[
                "american_checkers",
                "checkers",
                "english_checkers",
                "bashni",
                "column_checkers",
                "brazilian_checkers",
                "czech_checkers",
                "russian_checkers",
                "unified_pool_checkers",
            ],
            CHECKER_CELL,
            ck::american_checkers,
        ),
        game(
            "checker",
            &["american_pool_checkers"],
            CHECKER_CELL,
            ck::american_pool_checkers,
        ),
        game(
            "checker",
            &["breakthrough", "crossings", "gothic_checkers", "kangaroo"],
            CHECKER_CELL,
            ck::breakthrough,
        ),
        game(
            "checker",
            &[
                "canadian_checkers",
                "malaysian_checkers",
                "singaporean_checkers",
            ],
            CHECKER_CELL,
            ck::canadian_checkers,
        ),
        game(
            "checker",
            &["corner_checkers"],
            CHECKER_CELL,
            ck::corner_checkers,
        ),
        game("checker", &["dameo"], CHECKER_CELL, ck::dameo),
        game("checker", &["dao"], CHECKER_CELL, ck::dao),
        game(
            "checker",
            &["dodgem"],
            &[
                ("nrows", "3L"),
                ("cell_width", "getOption(\"ppdf.checker_cell_width\", 1)"),
            ],
            ck::dodgem,
        ),
        game("checker", &["focus"], CHECKER_CELL, ck::focus),
        game(
            "checker",
            &["four_field_kono"],
            CHECKER_CELL,
            ck::four_field_kono,
        ),
        game(
            "checker",
            &["frisian_checkers", "international_checkers"],
            CHECKER_CELL,
            ck::frisian_checkers,
        ),
        game("checker", &["grasshopper"], CHECKER_CELL, ck::grasshopper),
        game(
            "checker",
            &[
                "italian_checkers",
                "jamaican_checkers",
                "portuguese_checkers",
                "spanish_checkers",
            ],
            CHECKER_CELL,
            ck::italian_checkers,
        ),
        game("checker", &["jeson_mor"], CHECKER_CELL, ck::jeson_mor),
        game("checker", &["julgonu"], CHECKER_CELL, ck::julgonu),
        game("checker", &["lasca"], CHECKER_CELL, ck::lasca),
        game(
            "checker",
            &["lines_of_action"],
            CHECKER_CELL,
            ck::lines_of_action,
        ),
        game(
            "checker",
            &["one_way_checkers"],
            CHECKER_CELL,
            ck::one_way_checkers,
        ),
        game(
            "checker",
            &["thai_checkers"],
            CHECKER_CELL,
            ck::thai_checkers,
        ),
        game(
            "checker",
            &["turkish_checkers"],
            CHECKER_CELL,
            ck::turkish_checkers,
        ),
        game(
            "checker",
            &["zimbabwean_pool_checkers"],
            CHECKER_CELL,
            ck::zimbabwean_pool_checkers,
        ),
        // Chess sets.
        game(
            "chess",
            &["chess", "international_chess"],
            chess::FEN_ARGUMENTS,
            chess::chess,
        ),
        game(
            "chess",
            &["chess960", "fischer_random_chess"],
            chess::CHESS960_ARGUMENTS,
            chess::chess960,
        ),
        game(
            "chess",
            &["horde_chess"],
            chess::FEN_ARGUMENTS,
            chess::horde_chess,
        ),
        game(
            "chess",
            &["jeson_mor"],
            chess::FEN_ARGUMENTS,
            chess::jeson_mor,
        ),
        game(
            "chess",
            &["monochrome_chess"],
            chess::FEN_ARGUMENTS,
            chess::monochrome_chess,
        ),
        game(
            "chess",
            &["racing_kings"],
            chess::FEN_ARGUMENTS,
            chess::racing_kings,
        ),
        // Dominoes.
        game("domino", &["tiles"], &[("n", "7")], domino::tiles),
        game("domino", &["concentration"], SEED, domino::concentration),
        game(
            "domino",
            &["bee_donimoes"],
            &[("n", "7"), ("seed", "NULL")],
            domino::bee_donimoes,
        ),
        game("domino", &["finder"], SEED, domino::finder),
        game(
            "domino",
            &["freecell"],
            &[("n", "7"), ("seed", "NULL")],
            domino::freecell,
        ),
        game(
            "domino",
            &["fujisan"],
            &[
                ("seed", "NULL"),
                ("pips", "NULL"),
                ("pawns", "\"S12M/A12C\""),
            ],
            domino::fujisan,
        ),
        game("domino", &["luzon"], SEED, domino::luzon),
        game("domino", &["patience"], SEED, domino::patience),
        game("domino", &["runners"], SEED, domino::runners),
        game("domino", &["the_jubilee"], SEED, domino::the_jubilee),
        game("domino", &["the_sultan"], SEED, domino::the_sultan),
        // Go, morris, reversi and marble boards.
        game("go", &["go", "connect6"], GO, os::go),
        game("go", &["gomoku", "renju"], SMALL_GO, os::gomoku),
        game(
            "morris",
            &["three_mens_morris"],
            NONE,
            os::three_mens_morris,
        ),
        game("morris", &["five_mens_morris"], NONE, os::five_mens_morris),
        game("morris", &["six_mens_morris"], NONE, os::six_mens_morris),
        game(
            "morris",
            &["seven_mens_morris"],
            NONE,
            os::seven_mens_morris,
        ),
        game("morris", &["nine_mens_morris"], NONE, os::nine_mens_morris),
        game(
            "morris",
            &["ten_mens_morris", "lasker_morris"],
            NONE,
            os::ten_mens_morris,
        ),
        game(
            "morris",
            &["twelve_mens_morris"],
            NONE,
            os::twelve_mens_morris,
        ),
        game("reversi", &["reversi"], REVERSI, os::reversi),
        game("reversi", &["ming_mang"], REVERSI, os::ming_mang),
        game(
            "marble",
            &["board"],
            &[
                ("nrows", "4L"),
                ("ncols", "nrows"),
                ("x0", "1.0 * scale_factor"),
                ("y0", "1.0 * scale_factor"),
                ("suit", "\"cyan\""),
                ("scale_factor", "0.5"),
            ],
            os::marble_board,
        ),
        // Piecepack: traditional games.
        game("piecepack", &["achi"], NONE, pt::achi),
        game("piecepack", &["alquerque"], MATCHSTICKS, pt::alquerque),
        game(
            "piecepack",
            &["awithlaknannai_mosona"],
            MATCHSTICKS,
            pt::awithlaknannai_mosona,
        ),
        game("piecepack", &["backgammon"], NONE, pt::backgammon),
        game("piecepack", &["baghchal"], MATCHSTICKS, pt::baghchal),
        game("piecepack", &["brandubh"], NONE, pt::brandubh),
        game(
            "piecepack",
            &["cribbage", "cribbage_board"],
            NONE,
            pt::cribbage,
        ),
        game("piecepack", &["dara"], NONE, pt::dara),
        game("piecepack", &["four_field_kono"], NONE, pt::four_field_kono),
        game("piecepack", &["julgonu"], NONE, pt::julgonu),
        game("piecepack", &["ludo"], NONE, pt::ludo),
        game(
            "piecepack",
            &["nine_mens_morris", "twelve_mens_morris"],
            MATCHSTICKS,
            pt::nine_mens_morris,
        ),
        game("piecepack", &["salta"], SUBPACK, pt::salta),
        game("piecepack", &["seega"], NONE, pt::seega),
        game("piecepack", &["tablan"], NONE, pt::tablan),
        game(
            "piecepack",
            &["tablut"],
            &[("die_width", "0.63")],
            pt::tablut,
        ),
        game("piecepack", &["tic_tac_toe"], NONE, pt::tic_tac_toe),
        game("piecepack", &["yote"], NONE, pt::yote),
        // Piecepack: checkers variants and other abstract games.
        game(
            "piecepack",
            &[
                "american_checkers",
                "american_pool_checkers",
                "bashni",
                "brazilian_checkers",
                "checkers",
                "column_checkers",
                "czech_checkers",
                "english_checkers",
                "russian_checkers",
                "unified_pool_checkers",
                "zimbabwean_pool_checkers",
            ],
            NONE,
            pc::american_checkers,
        ),
        game("piecepack", &["corner_checkers"], NONE, pc::corner_checkers),
        game(
            "piecepack",
            &["gothic_checkers", "breakthrough", "crossings", "kangaroo"],
            NONE,
            pc::gothic_checkers,
        ),
        game(
            "piecepack",
            &[
                "italian_checkers",
                "jamaican_checkers",
                "portuguese_checkers",
                "spanish_checkers",
            ],
            NONE,
            pc::italian_checkers,
        ),
        game(
            "piecepack",
            &["one_way_checkers"],
            NONE,
            pc::one_way_checkers,
        ),
        game("piecepack", &["thai_checkers"], NONE, pc::thai_checkers),
        game(
            "piecepack",
            &["turkish_checkers"],
            NONE,
            pc::turkish_checkers,
        ),
        game(
            "piecepack",
            // The reference exports `12345ive`, which its own name normalisation turns
            // into `12345_ive`: both names reach the setup here.
            &["12345ive", "12345_ive"],
            NONE,
            pc::twelve_three_four_five_ive,
        ),
        game(
            "piecepack",
            &["change_change"],
            SEED_COINS,
            pc::change_change,
        ),
        game("piecepack", &["dao"], NONE, pc::dao),
        game(
            "piecepack",
            &["dodgem"],
            &[("nrows", "6L"), ("variant", "\"vout\"")],
            pc::dodgem,
        ),
        game("piecepack", &["evade"], NONE, pc::evade),
        game(
            "piecepack",
            &["kings_valley"],
            &[("variant", "\"standard\"")],
            pc::kings_valley,
        ),
        game("piecepack", &["leapfrog"], NONE, pc::leapfrog),
        game("piecepack", &["grasshopper"], NONE, pc::grasshopper),
        game("piecepack", &["lines_of_action"], NONE, pc::lines_of_action),
        game("piecepack", &["lukawan"], NONE, pc::lukawan),
        game("piecepack", &["quatri"], NONE, pc::quatri),
        game(
            "piecepack",
            &["three_musketeers"],
            NONE,
            pc::three_musketeers,
        ),
        // Piecepack: chess variants.
        game(
            "piecepack",
            &["alice_chess"],
            &[("has_subpack", "FALSE"), ("max_tiles", "24L")],
            pch::alice_chess,
        ),
        game(
            "piecepack",
            &["baroque_chess", "ultima"],
            SUBPACK,
            pch::baroque_chess,
        ),
        game("piecepack", &["chaturaji"], SUBPACK, pch::chaturaji),
        game(
            "piecepack",
            &["chess", "international_chess"],
            SUBPACK,
            pch::chess,
        ),
        game(
            "piecepack",
            &["chess960", "fischer_random_chess"],
            &[("seed", "NULL"), ("has_subpack", "FALSE")],
            pch::chess960,
        ),
        game(
            "piecepack",
            &["chinese_chess", "xiangqi"],
            SUBPACK,
            pch::chinese_chess,
        ),
        game(
            "piecepack",
            &["four_seasons_chess"],
            SUBPACK,
            pch::four_seasons_chess,
        ),
        game("piecepack", &["jeson_mor"], NONE, pch::jeson_mor),
        game(
            "piecepack",
            &["japanese_chess", "shogi"],
            &[("has_subpack", "FALSE"), ("cfg2", "\"piecepack\"")],
            pch::japanese_chess,
        ),
        game("piecepack", &["minishogi"], NONE, pch::minishogi),
        game("piecepack", &["racing_kings"], NONE, pch::racing_kings),
        // Piecepack: the components themselves and stock boards.
        game(
            "piecepack",
            &["tiles"],
            piecepack_parts::PART_ARGUMENTS,
            piecepack_parts::all_tiles,
        ),
        game(
            "piecepack",
            &["coins"],
            piecepack_parts::PART_ARGUMENTS,
            piecepack_parts::all_coins,
        ),
        game(
            "piecepack",
            &["dice"],
            piecepack_parts::DICE_ARGUMENTS,
            piecepack_parts::all_dice,
        ),
        game(
            "piecepack",
            &["pawns"],
            piecepack_parts::PART_ARGUMENTS,
            piecepack_parts::all_pawns,
        ),
        game(
            "piecepack",
            &["saucers"],
            piecepack_parts::PART_ARGUMENTS,
            piecepack_parts::all_saucers,
        ),
        game(
            "piecepack",
            &["matchsticks"],
            piecepack_parts::PART_ARGUMENTS,
            piecepack_parts::all_matchsticks,
        ),
        game(
            "piecepack",
            &["pyramids"],
            piecepack_parts::PART_ARGUMENTS,
            piecepack_parts::all_pyramids,
        ),
        game(
            "piecepack",
            &["rectangular_board"],
            &[
                ("nrows", "8L"),
                ("ncols", "8L"),
                ("x0", "1"),
                ("y0", "1"),
                ("max_tiles", "24L"),
            ],
            piecepack_parts::rectangular_board,
        ),
        game(
            "piecepack",
            &["donut_board"],
            &[
                ("side", "\"back\""),
                ("cfg", "\"piecepack\""),
                ("x0", "1"),
                ("y0", "1"),
            ],
            piecepack_parts::donut,
        ),
        // Piecepack: original games.
        game("piecepack", &["alien_city"], SEED_TILES, po::alien_city),
        game(
            "piecepack",
            &["desfases"],
            &[("seed", "NULL"), ("tiles", "NULL"), ("dice", "NULL")],
            po::desfases,
        ),
        game(
            "piecepack",
            &["fujisan"],
            &[
                ("seed", "NULL"),
                ("coins", "NULL"),
                ("dice", "NULL"),
                ("pawns", "\"S12M/A12C\""),
            ],
            po::fujisan,
        ),
        game("piecepack", &["ice_floe"], NONE, po::ice_floe),
        game(
            "piecepack",
            &["chinese_checkers", "halma"],
            NONE,
            po::chinese_checkers,
        ),
        game(
            "piecepack",
            &["black_pawn_trucking"],
            SEED,
            po::black_pawn_trucking,
        ),
        game("piecepack", &["brain_burn"], SEED, po::brain_burn),
        game("piecepack", &["burbuja"], SEED_TILES, po::burbuja),
        game(
            "piecepack",
            &["cardinals_guards"],
            SEED_TILES,
            po::cardinals_guards,
        ),
        game("piecepack", &["cell_management"], SEED, po::cell_management),
        game("piecepack", &["chariots"], NONE, po::chariots),
        game(
            "piecepack",
            &["climbing_man"],
            &[("seed", "NULL"), ("variant", "c(\"Basic\", \"Free\")")],
            po::climbing_man,
        ),
        game("piecepack", &["crocodile_hop"], SEED, po::crocodile_hop),
        game(
            "piecepack",
            &["easy_slider"],
            &[
                ("seed", "NULL"),
                ("tiles", "NULL"),
                ("coins", "NULL"),
                ("pawns", "NULL"),
            ],
            po::easy_slider,
        ),
        game("piecepack", &["everest"], NONE, po::everest),
        game("piecepack", &["four_blind_mice"], NONE, po::four_blind_mice),
        game("piecepack", &["froggy_bottom"], NONE, po::froggy_bottom),
        game("piecepack", &["galaxy_express"], SEED, po::galaxy_express),
        game("piecepack", &["iceberg"], SEED_TILES, po::iceberg),
        game("piecepack", &["dominoids"], SEED, po::dominoids),
        game("piecepack", &["mathrix"], SEED_COINS, po::mathrix),
        game(
            "piecepack",
            &["piecepackman"],
            &[("seed", "NULL"), ("variant", "\"Roundabout\"")],
            po::piecepackman,
        ),
        game("piecepack", &["ship_it"], SEED, po::ship_it),
        game(
            "piecepack",
            &["pawns_crossing"],
            &[("seed", "NULL"), ("n_players", "2L")],
            po::pawns_crossing,
        ),
        game(
            "piecepack",
            &["coin_collectors"],
            &[
                ("seed", "NULL"),
                ("tiles", "NULL"),
                ("coins", "NULL"),
                ("dice", "NULL"),
            ],
            po::coin_collectors,
        ),
        game("piecepack", &["klondike"], SEED, po::klondike),
        game("piecepack", &["lab_rats"], SEED, po::lab_rats),
        game("piecepack", &["landlocked"], SEED, po::landlocked),
        game("piecepack", &["ley_lines"], NONE, po::ley_lines),
        game("piecepack", &["one_man_thrag"], SEED, po::one_man_thrag),
        game("piecepack", &["pass_the_food"], NONE, po::pass_the_food),
        game("piecepack", &["piece_gaps"], SEED, po::piece_gaps),
        game(
            "piecepack",
            &["piece_packing_pirates"],
            SEED,
            po::piece_packing_pirates,
        ),
        game("piecepack", &["san_andreas"], NONE, po::san_andreas),
        game("piecepack", &["sarcophagus"], SEED, po::sarcophagus),
        game(
            "piecepack",
            &["shopping_mall"],
            &[("seed", "NULL"), ("cfg2", "\"go\"")],
            po::shopping_mall,
        ),
        game("piecepack", &["skyscrapers"], SEED_TILES, po::skyscrapers),
        game(
            "piecepack",
            &["slides_of_action"],
            NONE,
            po::slides_of_action,
        ),
        game(
            "piecepack",
            &["speedy_towers"],
            &[("n_players", "2"), ("seed", "NULL")],
            po::speedy_towers,
        ),
        game("piecepack", &["steppin_stones"], SEED, po::steppin_stones),
        game(
            "piecepack",
            &["tariffs"],
            &[(
                "variant",
                "c(\"simple zones\", \"grouped zones\", \"scattered zones\")",
            )],
            po::tariffs,
        ),
        game("piecepack", &["the_in_crowd"], NONE, po::the_in_crowd),
        game("piecepack", &["the_magic_bag"], SEED, po::the_magic_bag),
        game(
            "piecepack",
            &["the_penguin_game"],
            SEED,
            po::the_penguin_game,
        ),
        game(
            "piecepack",
            &["tornado_vs_trailer_park"],
            NONE,
            po::tornado_vs_trailer_park,
        ),
        game(
            "piecepack",
            &["tower_of_babel", "accordion"],
            SEED_TILES,
            po::tower_of_babel,
        ),
        game("piecepack", &["tracers"], NONE, po::tracers),
        game(
            "piecepack",
            &["triactor"],
            &[("seed", "NULL"), ("cfg2", "\"playing_cards_expansion\"")],
            po::triactor,
        ),
        game(
            "piecepack",
            &["tula"],
            &[
                ("seed", "NULL"),
                ("tiles", "NULL"),
                (
                    "variant",
                    "c(\"Original\", \"Variant 1\", \"Variant 2\", \"Variant 3\", \"Variant 4\")",
                ),
            ],
            po::tula,
        ),
        game("piecepack", &["wormholes"], NONE, po::wormholes),
        game("piecepack", &["japan"], SEED, po::japan),
        game(
            "piecepack",
            &["plans_of_action"],
            SEED_COINS,
            po::plans_of_action,
        ),
        game("piecepack", &["relativity"], SEED_COINS, po::relativity),
        // Stackpack: piecepack plus subpack.
        game(
            "stackpack",
            &["alice_chess"],
            &[("max_tiles", "24L")],
            stackpack_alice_chess,
        ),
        game(
            "stackpack",
            &["baroque_chess", "ultima"],
            NONE,
            stackpack_baroque_chess,
        ),
        game("stackpack", &["chaturaji"], NONE, stackpack_chaturaji),
        game(
            "stackpack",
            &["chess", "international_chess"],
            NONE,
            stackpack_chess,
        ),
        game(
            "stackpack",
            &["chess960", "fischer_random_chess"],
            SEED,
            stackpack_chess960,
        ),
        game(
            "stackpack",
            &["chinese_chess", "xiangqi"],
            NONE,
            stackpack_chinese_chess,
        ),
        game(
            "stackpack",
            &["four_seasons_chess"],
            NONE,
            stackpack_four_seasons_chess,
        ),
        game("stackpack", &["horde_chess"], NONE, pch::horde_chess),
        game(
            "stackpack",
            &["japanese_chess", "shogi"],
            NONE,
            stackpack_japanese_chess,
        ),
        game("stackpack", &["salta"], NONE, stackpack_salta),
    ];
    GAMES
}
