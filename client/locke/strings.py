"""Super Human Locke's words at the table, in English and Japanese (catalogue keys ``lk_*``).

Kept apart from client/i18n.py because Locke alone has about four hundred
of them; client/i18n.py merges this table into its catalogue, so ``tr``
and the font and translation tests (tests/client/test_client_render.py,
tests/client/test_client_locke_words.py) see them like every other key.
The guide in the help overlay is written for players from
docs/rules/locke.md; the rule ids stay in the engine's refusals' details.

Families: ``lk_act_<kind>`` names a legal input on its button and in the
log (fields from the action, see client/locke/words.py); ``lk_ev_<kind>``
words one public event of the engine's log; ``lk_wait_<prompt>`` says
what a seat is deciding (the banner); ``lk_help_*`` is the guide.
"""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    # -- the table -------------------------------------------------------------------------------
    "lk_title": ("Super Human Locke, {seats} seats", "超人ロック（{seats}人）"),
    "lk_hint": ("Your choices appear under the board; cells you can use light up on it. F1 opens the guide.",
                "あなたの選択肢は盤の下に出ます。使えるマスは盤の上で光ります。F1でガイドを開きます。"),
    "lk_phase_setup": ("Set-up", "準備"),
    "lk_phase_planet": ("Planet phase", "惑星フェイズ"),
    "lk_phase_base": ("Base phase", "基地フェイズ"),
    "lk_phase_reveal": ("Final reveal", "最後の公開"),
    "lk_phase_over": ("Game over", "ゲーム終了"),
    "lk_turn_line": ("{phase} · turn {turn} · {who} plays", "{phase}・{turn}手番目・{who}の番"),
    "lk_you_decide": ("Your decision: {what}", "あなたの番：{what}"),
    "lk_decides": ("{who} is deciding: {what}", "{who}が決めています：{what}"),
    "lk_table_does": ("The table: {what}", "卓：{what}"),
    "lk_sys_dice": ("rolling dice", "ダイスをふる"),
    "lk_sys_cards": ("dealing, shuffling or showing cards", "カードを配る・シャッフル・見せる"),
    "lk_sys_place": ("a player places hidden markers", "プレイヤーが伏せたマーカーを置く"),
    "lk_sys_place_you": ("where your hidden markers go", "伏せマーカーを置く場所"),
    "lk_sys_sealed": ("every player picks in secret", "全員がひそかに選ぶ"),
    "lk_over": ("The game is over.", "ゲームは終わりました。"),
    "lk_pick_cell": ("Click a lit cell on the board, or a button below.", "盤の光っているマスか、下のボタンを押してください。"),
    "lk_place_thing": ("Place {thing}: click a lit cell (only you see where).",
                       "{thing}を置きます：光っているマスを押してください（場所はあなたにしか見えません）。"),
    "lk_choose_one": ("Choose one.", "ひとつ選んでください。"),
    "lk_more": ("{n} more", "ほか{n}件"),
    "lk_back": ("Back", "戻る"),
    "lk_page": ("More…", "次へ…"),
    "lk_auto": ("Answer for me when there is one choice", "選択肢がひとつなら自動で答える"),
    "lk_auto_on": ("Auto: on", "自動：オン"),
    "lk_auto_off": ("Auto: off", "自動：オフ"),
    "lk_auto_did": ("Answered for you (the only choice): {what}", "自動で答えました（選択肢はひとつ）：{what}"),
    "lk_repeat_off": ("Answer like this from now on: off", "次からも同じ答え：オフ"),
    "lk_repeat_on": ("Answer like this from now on: on", "次からも同じ答え：オン"),
    "lk_repeat_did": ("Answered as you asked (your last answer): {what}", "前と同じ答えにしました：{what}"),
    "lk_since": ("Since your last decision", "前回のあなたの番から"),
    "lk_log_since": ("Latest", "新着"),
    "lk_log_mine": ("Mine", "自分"),
    "lk_log_combat": ("Combat", "戦闘"),
    "lk_log_all": ("All", "すべて"),
    "lk_nothing_since": ("Nothing happened yet.", "まだ何も起きていません。"),
    "lk_refused": ("That is not possible now: {why}. Choose one of the lit cells or buttons.",
                   "いまはできません：{why}。光っているマスかボタンから選んでください。"),
    "lk_not_yours": ("It is not your decision now; wait for the banner to say \"Your decision\".",
                     "いまはあなたの番ではありません。上の表示が「あなたの番」になるまで待ってください。"),
    "lk_not_legal_cell": ("No legal move goes to {cell}. Click a lit cell.",
                          "{cell}へは動けません。光っているマスを押してください。"),
    "lk_rule": ("rule {rule}", "ルール {rule}"),
    # cells, dice, button groups
    "lk_cell_port": ("{planet} spaceport", "{planet}宇宙港"),
    "lk_cell_base": ("Base {row}-{col}", "基地{row}-{col}"),
    "lk_die": ("shadow die {n}", "影のダイス{n}"),
    "lk_grp_locke.walk": ("Walk…", "歩く…"),
    "lk_grp_locke.land": ("Land on…", "着く場所…"),
    "lk_grp_locke.fly": ("Fly to…", "飛ぶ…"),
    "lk_grp_locke.teleport": ("Teleport…", "テレポート…"),
    "lk_grp_locke.enter_base": ("Enter the base…", "基地に入る…"),
    "lk_grp_locke.nova": ("Nova check…", "ノヴァのチェック…"),
    "lk_grp_locke.check_value": ("Declare a value…", "値を宣言…"),
    "lk_grp_locke.stat": ("Declare…", "宣言…"),
    "lk_grp_locke.durability": ("Declare durability…", "耐久を宣言…"),
    "lk_grp_locke.cb.durability": ("Declare durability…", "耐久を宣言…"),
    "lk_grp_locke.propose": ("Invite to a party…", "パーティーにさそう…"),
    "lk_grp_locke.identify": ("Look at a card…", "カードを見る…"),
    "lk_grp_locke.cb.equip": ("Equip…", "装備…"),
    "lk_grp_locke.order": ("Give an order…", "命令する…"),
    "lk_grp_locke.choose": ("Choose…", "選ぶ…"),
    "lk_grp_locke.switch": ("Silhouette…", "シルエット…"),
    "lk_grp_locke.info_check": ("Information cards…", "情報カード…"),
    "lk_grp_locke.play_teleport": ("Teleport card…", "テレポートカード…"),
    "lk_grp_locke.cb.trim": ("Put back cards…", "カードをもどす…"),
    "lk_grp_locke.cb.ship_effect": ("Ship effect…", "船の効果…"),
    "lk_grp_locke.cb.suit_kind": ("Suit kind…", "スーツの種類…"),
    "lk_grp_locke.fight": ("Start a combat…", "戦闘をしかける…"),
    "lk_grp_locke.king_room": ("King editorial room…", "キング編集室…"),
    "lk_grp_place": ("Choose a cell from a list…", "リストからマスを選ぶ…"),
    "lk_grp_cell": ("At this cell…", "このマスで…"),
    # what a seat is deciding (the banner)
    "lk_wait_above": ("whether to act from above", "上から動くか"),
    "lk_wait_answer": ("whether to accept the victory declaration", "勝利宣言を認めるか"),
    "lk_wait_appear": ("whether to come out of the ambush", "待ちぶせから出るか"),
    "lk_wait_blast_choice": ("what the psycho blast takes", "サイコブラストで何を失うか"),
    "lk_wait_cb_absorb": ("whether the suit absorbs the attack", "スーツが攻撃を吸収するか"),
    "lk_wait_cb_act": ("a combat action (attack, item or pass)", "戦闘の行動（攻撃・アイテム・パス）"),
    "lk_wait_cb_block": ("whether to block the escape", "脱出を妨害するか"),
    "lk_wait_cb_break": ("whether the jammer or field breaks", "ジャマーかフィールドがこわれるか"),
    "lk_wait_cb_defend": ("how to defend against the attack", "攻撃をどう防ぐか"),
    "lk_wait_cb_disint": ("whether to use disintegration", "分解消去を使うか"),
    "lk_wait_cb_disint_level": ("the level for disintegration", "分解消去のレベル"),
    "lk_wait_cb_dur": ("your durability before the hit", "攻撃を受ける前の耐久"),
    "lk_wait_cb_equip": ("what to bring into the combat", "戦闘に持ちこむ装備"),
    "lk_wait_cb_escape": ("whether to escape the attack", "攻撃から脱出するか"),
    "lk_wait_cb_go_on": ("whether to go on fighting", "戦いを続けるか"),
    "lk_wait_cb_hench": ("how many henchmen to bring", "手下を何人つれてくるか"),
    "lk_wait_cb_jam_ask": ("whether the jammer stops the card", "ジャマーがカードを止めるか"),
    "lk_wait_cb_land": ("where the escape lands", "脱出先"),
    "lk_wait_cb_leave": ("whether to leave the combat", "戦闘からぬけるか"),
    "lk_wait_cb_mirror_block": ("whether the mirror blocks", "鏡で妨害するか"),
    "lk_wait_cb_party": ("a party in the combat", "戦闘中のパーティー"),
    "lk_wait_cb_party_join": ("whether to join the party", "パーティーに入るか"),
    "lk_wait_cb_ship_effect": ("what the ship does", "船の効果"),
    "lk_wait_cb_sleep": ("whether to fall asleep under the illusion", "幻覚で眠るか"),
    "lk_wait_cb_spare": ("what to say to the E-buster", "Eバスターへの答え"),
    "lk_wait_cb_suit_kind": ("which kind of suit", "スーツの種類"),
    "lk_wait_cb_sync": ("whether to sync with the attack", "攻撃に同調するか"),
    "lk_wait_cb_thought_sync": ("whether the residual thought syncs", "残留思念が同調するか"),
    "lk_wait_check_value": ("the value to declare for a check", "チェックで宣言する値"),
    "lk_wait_clone": ("whether to use the clone", "クローンを使うか"),
    "lk_wait_clone_place": ("where the clone spaceport goes", "宇宙港のクローンを置く場所"),
    "lk_wait_declaring": ("whether to declare victory", "勝利を宣言するか"),
    "lk_wait_enter_place": ("where to enter the base", "基地の入口"),
    "lk_wait_escape": ("whether to escape from prison", "刑務所から脱走するか"),
    "lk_wait_evil_info": ("the Evil exception", "悪の例外"),
    "lk_wait_fact": ("a question about your character", "キャラクターについての質問"),
    "lk_wait_fight": ("whether to start a combat", "戦闘をしかけるか"),
    "lk_wait_follow": ("whether to follow the leader", "リーダーについていくか"),
    "lk_wait_follow_fight": ("whether to follow into the combat", "戦闘についていくか"),
    "lk_wait_hallu_declare": ("your durability under the hallucination", "幻覚での耐久"),
    "lk_wait_hit_value": ("your durability before the hit", "攻撃を受ける前の耐久"),
    "lk_wait_identify": ("whose character card to look at", "だれのキャラクターカードを見るか"),
    "lk_wait_identity": ("whose card to look at", "だれのカードを見るか"),
    "lk_wait_info_check": ("whether to show information cards", "情報カードを見せるか"),
    "lk_wait_info_entry": ("where to enter the base", "基地の入口"),
    "lk_wait_join": ("whether to join the party", "パーティーに入るか"),
    "lk_wait_keep": ("whether to keep the planet card", "惑星カードを伏せて持つか"),
    "lk_wait_king": ("the King editorial room", "キング編集室"),
    "lk_wait_land": ("where the teleport lands", "テレポートの着く場所"),
    "lk_wait_loop_hit": ("your durability before the hit", "攻撃を受ける前の耐久"),
    "lk_wait_move": ("a move (walk, teleport, fly or rest)", "移動（歩く・テレポート・飛ぶ・休む）"),
    "lk_wait_nova": ("the Nova check", "ノヴァのチェック"),
    "lk_wait_order": ("an order for a controlled player", "操っているプレイヤーへの命令"),
    "lk_wait_override": ("whether to void the refusal", "断りを無効にするか"),
    "lk_wait_race_keep": ("whether to keep the race prize", "レースの賞品を持つか"),
    "lk_wait_race_six": ("whether to go on in the race", "レースを続けるか"),
    "lk_wait_release": ("release ability or prison check", "釈放の能力か刑務所のチェック"),
    "lk_wait_reroll": ("whether to roll again (residential district)", "ふりなおすか（住宅地区）"),
    "lk_wait_sex_declare": ("a question about your character", "キャラクターについての質問"),
    "lk_wait_surrender": ("whether to surrender", "降伏するか"),
    "lk_wait_switch": ("which silhouette to take", "どのシルエットにするか"),
    "lk_wait_try_revive": ("whether to roll to turn up in the combat", "戦闘にあらわれるかふるか"),
    "lk_wait_vortex_play": ("the stacked vortex", "重なった渦"),
    "lk_wait_whim_choice": ("Hijiri's whim", "聖の気まぐれ"),
    # the seat rail
    "lk_state_normal": ("normal", "通常"),
    "lk_state_resting": ("resting", "行動不能"),
    "lk_state_arrested": ("arrested", "逮捕"),
    "lk_state_partner": ("partner", "同行"),
    "lk_state_dead": ("dead", "死亡"),
    "lk_rail_facts": ("dmg {damage} · kept {kept} · info {info}", "ダメージ{damage}・伏せ札{kept}・情報{info}"),
    "lk_rail_where": ("at {cell}", "{cell}"),
    "lk_rail_off": ("off the board", "盤の外"),
    "lk_rail_is": ("is {character}", "正体：{character}"),
    "lk_rail_seen": ("you saw: {character}", "見た：{character}"),
    "lk_rail_seen_by": ("card seen by seats {seats}", "カードを見た席：{seats}"),
    "lk_rail_with": ("with {who}", "{who}と同行"),
    "lk_rail_ctl": ("controlled by seat {n}", "席{n}が操っている"),
    "lk_rail_mods": ("changes: {mods}", "変化：{mods}"),
    "lk_rail_proofs": ("proofs {n}", "証明{n}"),
    # the private panel
    "lk_panel_title": ("You", "あなた"),
    "lk_panel_character": ("Character: {name} ({attribute})", "キャラクター：{name}（{attribute}）"),
    "lk_panel_unknown": ("Character: not dealt yet", "キャラクター：まだ配られていません"),
    "lk_panel_stats": ("Level {level} · Power {power} · Durability {durability}/{max} · Mind {mind}",
                       "レベル{level}・パワー{power}・耐久{durability}/{max}・精神{mind}"),
    "lk_panel_abilities": ("Abilities: {list}", "能力：{list}"),
    "lk_panel_items": ("Items: {list}", "アイテム：{list}"),
    "lk_panel_die": ("Shadow die: {die}", "影のダイス：{die}"),
    "lk_panel_kept": ("Kept cards: {list}", "伏せた惑星カード：{list}"),
    "lk_panel_hand": ("Combat hand: {list}", "戦闘の手札：{list}"),
    "lk_panel_shown": ("You were shown: {list}", "見せられたもの：{list}"),
    "lk_panel_ambush": ("Your hidden markers: {list}", "あなたの伏せマーカー：{list}"),
    "lk_panel_base_player": ("You are a base player.", "あなたは基地プレイヤーです。"),
    "lk_none": ("none", "なし"),
    "lk_attr_good": ("Good", "善"),
    "lk_attr_evil": ("Evil", "悪"),
    "lk_attr_evil-good": ("Evil/Good", "悪/善"),
    "lk_attr_neutral": ("Neutral", "中立"),
    "lk_attr_unknown": ("unknown", "不明"),
    "lk_attr_special": ("Special", "特殊"),
    # the combat overlay
    "lk_cb_title": ("Combat at {cell} · round {round}", "{cell}で戦闘・{round}ラウンド"),
    "lk_cb_fighter": ("{who}: {cards} cards · power spent {spent}{extra}", "{who}：手札{cards}枚・使ったパワー{spent}{extra}"),
    "lk_cb_obstacle": ("{name}: level {level} · firepower {fp} · durability {dur}",
                       "{name}：レベル{level}・火力{fp}・耐久{dur}"),
    "lk_cb_out": (" · out", "・離脱"),
    "lk_cb_fainted": (" · knocked out", "・気絶"),
    "lk_cb_strike": ("Attack: {attacker} → {target}, level {level}, firepower {fp}",
                     "攻撃：{attacker}→{target}、レベル{level}、火力{fp}"),
    "lk_cb_order": ("Initiative: {order}", "行動順：{order}"),
    "lk_cb_side": ("Side {n}", "陣営{n}"),
    "lk_fighter_n": ("fighter {n}", "戦闘者{n}"),
    # the set-up picker and the end
    "lk_setup_bots": ("Bots", "ボット"),
    "lk_grade": ("grade {grade}", "評価{grade}"),
    # the board's legend (help overlay)
    "lk_l_back": ("A planet or base card still face down: nobody knows it until someone lands there.",
                  "まだ伏せてある惑星カード・基地カード。だれかが止まるまでわかりません。"),
    "lk_l_face": ("A face-up card, by its name: an instruction shown, a spaceport, a base room.",
                  "表向きのカード（名前つき）：見せた指示、宇宙港、基地の部屋。"),
    "lk_l_empty": ("An empty cell: its card was taken (kept face down by someone).", "からのマス：カードはだれかが伏せて持っています。"),
    "lk_l_port": ("A printed spaceport: fly from it to any other spaceport.", "印刷された宇宙港：ほかの宇宙港へ飛べます。"),
    "lk_l_pieces": ("Players by seat number and colour; a hollow disc is a dead player.",
                    "席の番号と色のコマ。中がぬけたコマは死んだプレイヤーです。"),
    "lk_l_party": ("Stacked discs: a party (the leader on top).", "重なったコマ：パーティー（いちばん上がリーダー）。"),
    "lk_l_target": ("A lit cell: one of your legal inputs goes there; click it.", "光るマス：あなたの動ける先です。押してください。"),
    "lk_l_mine": ("Framed in pink: your own hidden marker (an ambush, a key base); only you see it.",
                  "ピンクのわく：あなたの伏せマーカー（待ちぶせ・重要基地）。あなたにしか見えません。"),
    "lk_l_destroyed": ("Crossed out: a destroyed key base.", "×じるし：こわされた重要基地。"),
    # the guide (help overlay): premise, a turn, the phases, how each side wins, grades
    "lk_help_premise_t": ("The premise", "どんなゲーム？"),
    "lk_help_premise": (
        "Each player is secretly dealt a character of the Locke universe: Good, Evil, an Evil who may turn Good, "
        "or Special with aims of their own. Everyone shows only a silhouette, a public face that may lie. You "
        "move across six planets, pick up planet cards, fight, and try to learn who is who before the others do.",
        "各プレイヤーは超人ロックの世界のキャラクターをひそかに受け取ります。善、悪、善に変わるかもしれない悪、"
        "または自分だけの目的をもつ特殊です。みんなに見せるのはシルエット（表の顔）だけで、本当とは限りません。"
        "六つの惑星を動き、惑星カードを拾い、戦い、だれがだれなのかを先に見ぬきましょう。"),
    "lk_help_turn_t": ("A turn", "手番の流れ"),
    "lk_help_turn": (
        "On your turn you may first declare victory. Then you move: walk one cell, teleport by declaring a level "
        "and rolling, fly between spaceports, or rest to recover. On a planet card cell you draw it: keep it face "
        "down (an ability card) or show it and obey it. Then you may start a combat with someone on your cell. "
        "The lit cells on the board are exactly where you may go; the buttons are everything else you may do.",
        "自分の番では、まず勝利宣言ができます。次に移動します：1マス歩く、レベルを宣言してふるテレポート、"
        "宇宙港から宇宙港へ飛ぶ、休んで回復する、のどれかです。惑星カードのマスでは、そのカードを引きます："
        "伏せて持つ（能力カード）か、見せてしたがいます。そのあと同じマスの相手に戦闘をしかけられます。"
        "盤の光るマスが行けるところ、ボタンがそのほかにできることです。"),
    "lk_help_phases_t": ("The phases", "フェイズ"),
    "lk_help_phases": (
        "Set-up: characters, shadow dice and silhouettes are dealt, and hidden ambushes are placed. Planet phase: "
        "the six planets. When the base is found the base phase begins: a 6 by 6 grid of base cards where four "
        "key bases lie hidden. Combats use combat cards: attack, escape, defend, block and sync; damage is rolled "
        "on a chart. The game ends with an accepted victory declaration, the fourth key base destroyed, or when "
        "at most one player is alive; then every card is shown and judged.",
        "準備：キャラクター、影のダイス、シルエットが配られ、待ちぶせがひそかに置かれます。惑星フェイズ：六つの惑星を"
        "動きます。基地が見つかると基地フェイズになり、6×6の基地カードの中に四つの重要基地がかくれています。"
        "戦闘では戦闘カードで攻撃・脱出・防御・妨害・同調をし、ダメージは表でふります。勝利宣言が認められるか、"
        "四つめの重要基地がこわされるか、生きている人がひとり以下になると終わり、全員のカードを公開して判定します。"),
    "lk_help_win_t": ("How each side wins", "勝ちかた"),
    "lk_help_win": (
        "Winning needs both your side's condition and your own card's. Good: all four key bases destroyed, or no Evil "
        "alive (and while a key base stands, at least one Good alive). Evil: no Good alive and at least one Evil alive. "
        "Evil/Good: Evil at first, Good only while converted. Special characters have only their card's own condition. "
        "Your silhouette plays no part in winning. A victory declaration asks everyone: anyone may refuse, and a "
        "refusal can be voided by showing your character card.",
        "勝つには、自分の陣営の条件とカード自身の条件の両方が必要です。善：四つの重要基地がすべてこわされるか、悪がひとりも"
        "生きていない（重要基地が残っている間は善がひとり以上生きている）。悪：善がひとりも生きておらず、悪がひとり以上"
        "生きている。悪/善：はじめは悪で、改心している間だけ善。特殊：カード自身の条件だけ。シルエットは勝ち負けに"
        "関係しません。勝利宣言は全員にたずね、だれでも断れます。断りはキャラクターカードを見せると無効にできます。"),
    "lk_help_grades_t": ("Grades A to D", "評価A〜D"),
    "lk_help_grades": (
        "When the game ends every card is shown and each player gets a grade: A alive and winning, B dead but "
        "winning, C alive but losing, D dead and losing. The end screen lists every player's grade.",
        "ゲームが終わると全員のカードを公開し、評価をつけます：A 生きて勝ち、B 死んだが勝ち、C 生きているが負け、"
        "D 死んで負け。終了画面に全員の評価が出ます。"),
    "lk_help_keys_t": ("Controls", "操作"),
    "lk_help_keys": (
        "The banner at the top always says who is deciding what. When it is your decision, click a lit cell or a "
        "button under the board; a button with several variants opens them (Back returns). Hidden markers are placed "
        "by clicking a lit cell. The seat rail on the left shows every player; your own cards are in the panel on "
        "the right above the log. The Auto button answers prompts that have only one choice. F1 or ? opens this "
        "guide, Esc closes a question.",
        "上の表示はいつも、だれが何を決めているかを示します。あなたの番では、光るマスか盤の下のボタンを押します。"
        "いくつかの形があるボタンは開いて選びます（戻るでもどります）。伏せマーカーは光るマスを押して置きます。"
        "左の列に全員が、右のログの上にあなたのカードが出ます。自動ボタンは選択肢がひとつの質問に自動で答えます。"
        "F1か?でこのガイドを開き、Escで質問を閉じます。"),
}
