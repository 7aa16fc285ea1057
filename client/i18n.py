"""User-interface strings in English and Japanese.

Card names and texts come from the card set; everything else the player
reads is here, keyed by a stable id. :func:`tr` formats with named fields
and falls back to English (never to a key) if a translation is missing.
"""

from __future__ import annotations

from typing import Any

from net.seats import seat_number

LANGS = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    # lobby
    "title": ("Fairtable", "フェアテーブル"),
    "subtitle": ("Card and board games - fair play without a referee", "カードゲームとボードゲーム - 審判なしの公正な対戦"),
    "play_now": ("Play now", "すぐに遊ぶ"),
    "play_bot": ("Play against a bot", "ボットと対戦"),
    "play_bot_hint": ("A local table on this computer. No set-up needed.", "このコンピューター上のローカル卓。準備は不要です。"),
    # the game picker (every game of the registry, net/games/) and Tiny's plain table (client/tiny/)
    "game": ("Game", "ゲーム"),
    "game_no_ui": ("{game} has no table in this client yet; play it with python -m tools.match {name}.",
                   "{game}はまだこのクライアントで遊べません。python -m tools.match {name} で遊べます。"),
    "play_busy": ("You are hosting or joining a table: cancel it first to play against a bot.",
                  "卓を立てているか参加中です。ボットと対戦するには、先にキャンセルしてください。"),
    "friends_no_identity_short": ("Hosting and joining are off: your identity key could not be opened (see below).",
                                  "卓を立てる・参加はできません：IDキーを開けませんでした（下を見てください）。"),
    "friends_no_identity": ("Hosting and joining need your identity key, which could not be loaded ({error}). "
                            "Check that your data folder can be written, then restart.",
                            "卓を立てる・参加するにはIDキーが必要ですが、開けませんでした（{error}）。"
                            "データフォルダーに書き込めるか確かめてから、アプリを開きなおしてください。"),
    "game_local_only": ("{game} plays only on this computer for now (it has no networked table yet): hosting and "
                        "joining are off for it.",
                        "{game}はいまのところこのコンピューターでのみ遊べます（ネットワーク卓はまだありません）。"
                        "卓を立てる・参加はできません。"),
    "friends_games": ("Networked games: {games}. Hosting and joining play the game chosen below.",
                      "ネットワークで遊べるゲーム：{games}。下で選んだゲームの卓を立てる・参加します。"),
    "friends_off": ("{game} cannot be played with friends yet: choose one of {games} below.",
                    "{game}はまだ友達と遊べません。下で{games}のどれかを選んでください。"),
    "host_game": ("Host a {game} table", "{game}の卓を立てる"),
    "setup_seats": ("Seats", "人数"),
    "lan_other_game": ("That table plays {game}, which this client cannot play with friends.",
                       "その卓のゲーム（{game}）は、このクライアントでは友達と遊べません。"),
    "tiny_title": ("Tiny, {seats} seats", "タイニー（{seats}人）"),
    "tiny_deck": ("Deck: {n} cards", "山札：{n}枚"),
    "tiny_hand": ("Your hand: {cards}", "あなたの手札：{cards}"),
    "tiny_seat": ("{hand} in hand · played {played} · guessed {guess}", "手札{hand}枚・出した{played}・よそう{guess}"),
    "tiny_hint": ("When it is your turn, your choices are the buttons under the table.",
                  "あなたの番になると、卓の下のボタンから選べます。"),
    "tiny_dice": ("Dice: {faces} = {total}", "ダイス：{faces} = {total}"),
    "tiny_revealed": ("Revealed: {cards}", "公開：{cards}"),
    "tiny_won": ("You win.", "あなたの勝ちです。"),
    "tiny_lost": ("{who} wins.", "{who}の勝ちです。"),
    "tiny_log_play": ("{who} plays {card}.", "{who}が{card}を出しました。"),
    "tiny_log_guesses": ("Guesses revealed: {guesses}.", "よそうを公開：{guesses}。"),
    "tiny_log_shuffled": ("The deck is shuffled.", "山札をシャッフルしました。"),
    "tiny_log_dealt": ("{who} is dealt {n} cards.", "{who}に{n}枚配りました。"),
    "tiny_log_shown": ("{who} is shown {n} card.", "{who}に{n}枚見せました。"),
    "tiny_wait_play": ("playing a card", "カードを出す"),
    "tiny_wait_guess": ("every seat's sealed guess", "全員の伏せたよそう"),
    "tiny_wait_table": ("dealing, shuffling or revealing", "配る・シャッフル・公開"),
    "tiny_help_goal_t": ("Goal", "勝ちかた"),
    "tiny_help_goal": ("Highest total wins: the number of the card you play plus the two dice. A guess that "
                       "matches the dice (high: 7 or more) adds 5. A tie goes to the lower seat.",
                       "出したカードの数とダイス2つの合わせた数がいちばん大きい人の勝ちです。ダイスに合ったよそう（たかい：7以上）は+5。同じなら番号の小さい席の勝ちです。"),
    "tiny_help_flow_t": ("How a game goes", "ゲームの流れ"),
    "tiny_help_flow": ("The deck is shuffled and every seat gets two cards. Everyone guesses high or low in "
                       "secret, the dice are rolled, then each seat plays one card face up in turn.",
                       "山札をシャッフルし、全員に2枚ずつ配ります。全員がひそかにたかい・ひくいをよそい、ダイスをふり、席の順に1枚ずつ表向きに出します。"),
    "tiny_help_fair_t": ("Fair play", "公正なプレイ"),
    "tiny_help_fair": ("At a networked table the shuffle, the deal and the dice are made jointly by every seat, "
                       "and every card played is proven: no seat can cheat unseen.",
                       "ネットワーク卓では、シャッフル・配札・ダイスを全員でいっしょに行い、出したカードはすべて証明されます。だれも気づかれずにずるはできません。"),
    "tiny_help_keys_t": ("Controls", "操作"),
    "tiny_help_keys": ("Click a button under the table to choose. F1 or ? opens this help, Esc closes a question. "
                       "The side panel has the log, the chat of a networked table, and the Lobby, Settings, Help "
                       "and Concede buttons.",
                       "卓の下のボタンをクリックして選びます。F1か?でこのヘルプ、Escで閉じます。サイドパネルにはログ、ネットワーク卓のチャット、ロビー・ヘルプ・降参などのボタンがあります。"),
    "tiny_your_turn": ("Your turn: pick one of the buttons below.", "あなたの番です。下のボタンから選んでください。"),
    "tiny_guess_high": ("Guess high (7+)", "たかい（7以上）"),
    "tiny_guessed_high": ("high", "たかい"),
    "tiny_guessed_low": ("low", "ひくい"),
    "tiny_guess_low": ("Guess low", "ひくい（6以下）"),
    "tiny_play": ("Play {card}", "{card}を出す"),
    "your_name": ("Your name", "プレイヤー名"),
    "deck": ("Your deck", "デッキ"),
    "bot_deck": ("Bot's deck", "ボットのデッキ"),
    "opponent": ("Opponent", "対戦相手"),
    "bot_greedy": ("Greedy bot", "強欲ボット"),
    "bot_random": ("Random bot", "ランダムボット"),
    "friends": ("Play with friends", "友達と遊ぶ"),
    "host": ("Host a table", "卓を立てる"),
    "join": ("Join", "参加"),
    "join_code": ("Invite code (LAN) or online code (7-word-word)", "招待コード（LAN）またはオンラインのコード"),
    "invite_online": ("Invite a friend online", "オンラインで友達を招待"),
    "online_codes": ("Online codes (one per friend):", "オンラインのコード（友達1人に1つ）："),
    "online_state_waiting": ("waiting", "待機中"),
    "online_state_joined": ("joined", "参加しました"),
    "online_state_expired": ("expired", "期限切れ"),
    "online_state_failed": ("failed: make a new one", "使えませんでした"),
    "lan_tables": ("Tables on this network", "このネットワーク上の卓"),
    "lan_none": ("No tables found.", "卓が見つかりません。"),
    "copy": ("Copy", "コピー"),
    "invite_give": ("Give this invite code to the other player:", "この招待コードを相手に伝えてください："),
    "copied": ("Copied to the clipboard. It is also printed in the console.",
               "クリップボードにコピーしました。コンソールにも出力しています。"),
    "copy_select": ("No clipboard here: the code is selected above and printed in the console; copy it from there.",
                    "クリップボードが使えません。コードは上で選択した状態で、コンソールにも出力しています。そこからコピーしてください。"),
    "copy_hint": ("Click Copy (or Ctrl+C) to copy the code.", "コピー（または Ctrl+C）でコードをコピーします。"),
    "hosting_wait": ("Your table is open. Waiting for {n} player(s) to join…", "卓を立てました。{n}人の参加を待っています…"),
    "joining": ("Joining the table of host {fingerprint}… Check that this is the fingerprint your friend sees.",
                "ホスト {fingerprint} の卓に参加しています…相手の指紋と同じか確認してください。"),
    "host_failed": ("Could not open a table: {error}. Check the network and try again.",
                    "卓を立てられませんでした：{error}。ネットワークを確認して再試行してください。"),
    "join_failed": ("Could not join: {error}. Check the code and the network, then try again.",
                    "参加できませんでした：{error}。コードとネットワークを確認して再試行してください。"),
    "net_cancelled": ("The table was closed. Host or join again when you are ready.",
                      "卓を閉じました。準備ができたら、もう一度卓を立てるか参加してください。"),
    "net_ended": ("The table closed before the game started: {error}", "対局の前に卓が閉じました：{error}"),
    "resume_game": ("Resume the unfinished game with {name}", "{name}との中断した対局を再開"),
    "abandon": ("Abandon", "破棄"),
    "resume_failed": ("Could not resume the game: {error}. Try again later, or abandon it and start a new one.",
                      "対局を再開できませんでした：{error}。後で再試行するか、破棄してから、もう一度卓を立てるか参加してください。"),
    "game_abandoned": ("The unfinished game was abandoned; the other player may claim it as your forfeit.",
                       "中断した対局を破棄しました。相手はあなたの不戦敗にできます。"),
    "rematch_wait": ("Rematch: waiting for {who} to press Play again too…",
                     "再戦：{who}も「もう一度」を押すのを待っています…"),
    "rematch_back": ("Back at the table: {who}.", "卓に戻った人：{who}。"),
    "rematch_seated": ("Rematch: you are back at the host's table; the game starts when every player is back.",
                       "再戦：ホストの卓に戻りました。全員が戻るとゲームがスタートします。"),
    "rematch_gone": ("The rematch did not start: {who} did not come back (they left or went to the lobby). "
                     "Host or join a new table to play again.",
                     "再戦はできませんでした：{who}が戻りませんでした（卓を離れたかロビーに戻りました）。"
                     "もう一度遊ぶには新しい卓を立てるか参加してください。"),
    "rematch_ended": ("The rematch did not start: {error}. Host or join a new table to play again.",
                      "再戦はできませんでした：{error}。もう一度遊ぶには新しい卓を立てるか参加してください。"),
    "resuming": ("Resuming the unfinished game: reconnecting and catching up…",
                 "中断した対局を再開しています：再接続して追いついています…"),
    # the peer driver's progress (net.peer.progress ids; seats counted from one as {seat_n})
    "progress_hosting": ("Table open on {host}:{port} for {seats} seats (your key {key}); waiting for {waiting} player(s)",
                         "{host}:{port} で{seats}人用の卓を開きました（あなたのキー {key}）。{waiting}人を待っています"),
    "progress_joining": ("Connecting to the table at {where} (host key {key})",
                         "{where} の卓に接続しています（ホストのキー {key}）"),
    "progress_joining_listen": ("Connecting to the table at {where} (host key {key}); direct links on {host}:{port}",
                                "{where} の卓に接続しています（ホストのキー {key}）。直接接続用に {host}:{port} で待っています"),
    "progress_link": ("Player {peer}: {status}", "プレイヤー {peer}：{status}"),
    "progress_link_seat": ("Seat {seat_n} ({peer}): {status}", "席{seat_n}（{peer}）：{status}"),
    "progress_refused": ("Refused {peer}: {reason_text}", "{peer} の参加を断りました：{reason_text}"),
    "progress_seat_taken": ("{who} takes seat {seat_n} of {size}", "{who}が席{seat_n}（全{size}席）に入りました"),
    "progress_table_roster": ("The host's table: {taken} seats taken so far", "ホストの卓：いま{taken}人が席についています"),
    "progress_seated": ("You have seat {seat_n}; waiting for the host to start the game",
                        "あなたは席{seat_n}です。ホストが対局を開くのを待っています"),
    "progress_starting": ("Every seat is taken; starting the game", "全ての席が決まりました。対局を開きます"),
    "progress_playing": ("The game starts: you have seat {seat_n}", "対局を開きます：あなたは席{seat_n}です"),
    "progress_resuming": ("Resuming the game as seat {seat_n}: catching up with the others",
                          "席{seat_n}として対局を再開します。他のプレイヤーに追いついています"),
    "progress_rejected": ("Refused a network message: {event_text}", "ネットワークメッセージを使いませんでした：{event_text}"),
    "progress_stalling": ("Waiting: {who} did not answer in time", "待機中：{who}が期限内に応答しませんでした"),
    "progress_stopped": ("The table stopped: {event_text}", "卓が停止しました：{event_text}"),
    "progress_finished": ("The game is over", "対局が終わりました"),
    "progress_step": ("Step {step}: waiting for {who}", "手番{step}：{who}を待っています"),
    "progress_resigned": ("{name} (seat {seat_n}) gave the game up", "{name}（席{seat_n}）が降参しました"),
    "progress_claiming": ("Claiming the game as the forfeit of seat {seat_n}", "席{seat_n}の不戦敗にしています"),
    "progress_misconduct": ("Seat {seat_n} made a premature forfeit claim at step {step}: {event_text}",
                            "席{seat_n}が手番{step}で、期限内なのに不戦勝にしようとしました：{event_text}"),
    "progress_transcript": ("Transcript saved to {path}", "記録を保存しました：{path}"),
    "progress_online_code": ("Online invite {n}: {code} (for one friend only; it works once)",
                             "オンライン招待{n}：{code}（友達1人に1つ。1回だけ使えます）"),
    "progress_online_joined": ("A friend came in with code {code}", "友達がコード {code} で入りました"),
    "progress_online_withdrawn": ("Code {code} was withdrawn: {why_text}", "コード {code} を取り消しました：{why_text}"),
    "progress_online_joining": ("Opening the wormhole with code {code}", "コード {code} でワームホールを開いています"),
    "progress_online_link": ("Wormhole link to {who}: {kind}", "{who}とのワームホール接続：{kind}"),
    "progress_online_resuming": ("Meeting {who} again automatically (nobody needs to type a code)",
                                 "{who}と自動で再接続しています（コード入力は不要です）"),
    "progress_online_problem": ("{problem_text}", "オンライン接続：{problem_text}"),
    "link_connected": ("connected", "接続中"),
    "link_relayed": ("reached through the host", "ホストを通して接続"),
    "link_stalling": ("not answering", "応答なし"),
    "link_reconnecting": ("connection lost, reconnecting", "接続が切れました。再接続中"),
    "link_left": ("left the table", "卓を離れました"),
    "seat_list": ("seat {n}", "席{n}"),
    "lan_off": ("The LAN list is off in this window.", "このウィンドウでは LAN 一覧は無効です。"),
    "lan_error": ("Cannot search this network ({error}); use an invite code instead.",
                  "このネットワークでは卓を見つけられません（{error}）。招待コードを使ってください。"),
    "lan_seats": ("{n} free", "空き{n}"),
    "code_bad": ("That invite code is not valid: {error}. Check it with the host and type it again.",
                 "招待コードが正しくありません：{error}。ホストに確認して入力し直してください。"),
    "join_refused": ("Could not join: nobody is listening at that address ({where}). Check that the host still has "
                     "the table open and that the code is the current one, then press Join again.",
                     "参加できませんでした：そのアドレス（{where}）で待っている卓がありません。ホストが卓を開いたままか、"
                     "コードが最新かを確かめてから、もう一度「参加」を押してください。"),
    "code_empty": ("Type or paste an invite code first.", "先に招待コードを入力してください。"),
    "fingerprint": ("Your fingerprint", "あなたの指紋"),
    "fingerprint_none": ("Identity not available", "ID は利用できません"),
    "language": ("Language", "言語"),
    "no_decks": ("No decks found in assets/rider/decks: reinstall the game.",
                 "assets/rider/decks にデッキがありません。ゲームを再インストールしてください。"),
    "engine_missing": ("The Rider rules engine is not available in this build: {error}",
                       "このビルドにはライダーのルールエンジンがありません：{error}"),
    "quit": ("Quit", "終了"),
    # table
    "you": ("You", "あなた"),
    "seat": ("Seat {n}", "席{n}"),
    "turn": ("Turn {n}", "ターン {n}"),
    "deck_pile": ("Deck", "デッキ"),
    "discard_pile": ("Discard", "捨て山"),
    "lost_pile": ("Lost", "ロスト"),
    "hand": ("Hand", "手札"),
    "power": ("Power {n}", "パワー {n}"),
    "power_split": ("Atk {atk} · Def {dfn}", "攻{atk}・守{dfn}"),
    "atk_badge": ("ATK", "攻撃"),
    "facedown": ("Face down", "裏向き"),
    "empty_column": ("No Lv.1", "Lv.1なし"),
    "waiting_you": ("Your move: {what}", "あなたの番：{what}"),
    "waiting_for": ("Waiting for {who}: {what}", "{who}を待っています：{what}"),
    "waiting_system": ("Table: {what}", "卓：{what}"),
    "pass": ("Pass", "パス"),
    "end_attacks": ("End turn", "ターン終了"),
    "cancel": ("Cancel", "キャンセル"),
    "confirm": ("Confirm", "確定"),
    "menu": ("Lobby", "ロビー"),
    "log": ("Game log", "ゲームログ"),
    "peers": ("Players", "プレイヤー"),
    "peer_you_local": ("you · local table (this computer)", "あなた・ローカル卓（このコンピューター）"),
    "peer_you_turn": ("you · your move", "あなた・あなたの番"),
    "peer_bot_thinking": ("bot · thinking…", "ボット・思考中…"),
    "peer_bot_local": ("bot · local table (this computer)", "ボット・ローカル卓（このコンピューター）"),
    "peer_connected": ("connected", "接続中"),
    "peer_waiting": ("waiting for this player", "このプレイヤーを待っています"),
    "peer_stalling": ("stalling: no answer before the deadline", "応答遅延：期限内に応答がありません"),
    "peer_cheat": ("cheat detected: a proof from this seat failed", "不正検出：この席の証明が失敗しました"),
    "peer_stopped": ("the table stopped", "卓が停止しました"),
    "net_phase_hello": ("Exchanging card keys and deck commitments with the other player…",
                        "相手とカードのキーとデッキのコミットメントをやりとりしています…"),
    "net_phase_audit": ("Game over: each seat opens its deck list and signs the final record…",
                        "ゲーム終了：それぞれの席がデッキリストを公開し、最終記録に署名しています…"),
    "net_stalling": ("{who} has not answered before the deadline. You may wait, claim the win, or leave the table.",
                     "{who}が期限内に応答していません。待つ、不戦勝にする、または卓を離れることができます。"),
    "net_silent": ("{who} has not answered for {quiet}. You may claim the win in {left} if they stay silent.",
                   "{who}が{quiet}のあいだ応答していません。このまま応答がなければ、あと{left}で不戦勝にできます。"),
    "net_left": ("{who} left the table: the win is yours (their signed goodbye is the proof).",
                 "{who}が卓を離れました。あなたの勝ちです（相手の署名付きのあいさつが証明になります）。"),
    "net_resigned": ("{who} conceded: the win is yours (their signed resignation is the proof).",
                     "{who}が降参しました。あなたの勝ちです（相手の署名付きの降参が証明になります）。"),
    "peer_resigned": ("conceded the game", "降参しました"),
    "claim_forfeit": ("Claim the win (forfeit)", "不戦勝にする"),
    "claim_forfeit_text": (("Your opponent missed the deadline. Claiming their forfeit ends the game now in your favour, "
                           "without the end-of-game audit; you may also keep waiting."),
                           ("相手が期限内に応答していません。不戦勝にすると対局はあなたの勝ちで終わりますが、"
                           "終了時の監査は行われません。このまま待つこともできます。")),
    "net_forfeit": ("{who} forfeited; signing the final record…", "{who}の不戦敗。最終記録に署名しています…"),
    "peer_you_net": ("you · networked table", "あなた・ネットワーク卓"),
    "peer_done": ("finished: final record signed", "終了：最終記録に署名した"),
    "peer_reconnecting": ("connection lost: reconnecting…", "接続が切れました：再接続中…"),
    "peer_left": ("left the table", "卓を離れました"),
    "table_stopped": ("The table stopped: {problem}. Nothing was skipped or repaired; go back to the lobby.",
                      "卓が停止しました：{problem}。何も省略・修復していません。ロビーに戻ってください。"),
    "cheat_by": ("Cheat detected by {who}: {problem}. The game is stopped; go back to the lobby.",
                 "{who}の不正を検出：{problem}。対局を停止しました。ロビーに戻ってください。"),
    "notices_dropped": ("{n} more notices (refused messages, stalls or chat lines) came faster than the table "
                        "could show them and were left out; every move was kept",
                        "{n} 件のメッセージ（正しくないメッセージ、待ち、チャット）が速すぎて、ログにのせませんでした。"
                        "手はすべて残っています"),
    "net_rejected": ("Refused a network message: {error}", "正しくないネットワークメッセージを使いませんでした（対局は続きます）：{error}"),
    "proof_local": ("local", "ローカル"),
    "proof_verified": ("verified", "検証OK"),
    "choose": ("Choose", "選んでください"),
    "setup_button": ("Set up columns", "列を準備"),
    "setup_title": ("Choose your face-down Lv.1 cards for columns A / B / C", "列A / B / C に裏向きで置く Lv.1 を選んでください"),
    "setup_place": ("Place face down", "裏向きに置く"),
    "setup_clear": ("Start over", "やり直す"),
    "setup_fill": ("Choose for me", "おまかせ"),
    "setup_tray": ("Your Lv.1 cards", "あなたの Lv.1"),
    "setup_drop": ("Drag a Lv.1 card here", "ここに Lv.1 をドラッグ"),
    "setup_goes_facedown": ("goes face down", "裏向きに置きます"),
    "hint_setup": ("Drag a Lv.1 onto A, B and C (or click it, then a column). The one you flip decides who "
                   "starts.", "Lv.1 を列A・B・Cへドラッグ（クリックしてから列をクリックしても置けます）。表にするカードで先攻が決まります。"),
    "mark_button": ("Pick a Lv.1 to flip", "表にする Lv.1 を選ぶ"),
    "rps_button": ("Rock-paper-scissors", "ジャンケン"),
    "choose_level": ("Place it as which level?", "どのレベルとして置きますか？"),
    "choose_discard": ("Choose the card to discard", "捨てるカードを選んでください"),
    "choose_action": ("Choose what to do", "行動を選んでください"),
    "choose_target": ("Choose the effect's target", "効果の対象を選んでください"),
    "attack_preview": ("Attack preview", "攻撃の予測"),
    "attack_vs": ("Your column {col}: {atk} power  vs  column {tgt}: {dfn} power",
                  "自分の列{col}：パワー{atk}  対  列{tgt}：パワー{dfn}"),
    "would_destroy": ("Would destroy: {cards}", "破壊されるカード：{cards}"),
    "would_destroy_none": ("Would destroy nothing.", "破壊されるカードはありません。"),
    "attacker_keeps": ("Your column keeps only its Lv.1 (and Lv.0).", "攻撃した列は Lv.1（と Lv.0）だけが残ります。"),
    "confirm_q": ("This cannot be undone: the move is recorded in the signed log.", "この操作は取り消せません（署名付きログに記録されます）。"),
    "hint_select": ("Click a card in your hand, then a highlighted column. Drag works too.",
                    "手札のカードをクリックし、光っている列をクリックします。ドラッグでも操作できます。"),
    "hint_attack": ("Click one of your glowing columns to attack, or End turn.", "光っている自分の列をクリックして攻撃するか、ターンを終了します。"),
    "hint_target": ("Click the opposing column to attack.", "攻撃する相手の列をクリックしてください。"),
    "hint_card": ("Now click a highlighted column, or another card.", "光っている列をクリックするか、別のカードを選んでください。"),
    "pile_title": ("{pile} of {who} ({n})", "{who}の{pile}（{n}枚）"),
    "pile_empty": ("Empty.", "空です。"),
    "close": ("Close", "閉じる"),
    "leave_title": ("Leave this game?", "この対局をやめますか？"),
    "leave_text": ("The game is abandoned and cannot be resumed. Finish it to see the audit and save the transcript.",
                   "対局は放棄され、再開できません。監査結果の確認と記録の保存は対局の終了後にできます。"),
    "leave_text_net": ("You give the game up: the other player is told at once and wins (your signed goodbye is the "
                       "proof).", "対局をやめると、相手にすぐ伝わり、相手の勝ちになります（あなたの署名付きのあいさつが証明になります）。"),
    "leave_yes": ("Leave the game", "対局をやめる"),
    "shortcuts": ("Keys: 1-9 hand card, A/B/C column, P pass, E end turn, Enter confirm, Esc cancel, L language, "
                  "F1 or ? help",
                  "キー：1-9 手札、A/B/C 列、P パス、E ターン終了、Enter 確定、Esc 取消、L 言語、F1 か ? ヘルプ"),
    # pending prompts
    "what_setup": ("place three Lv.1 cards face down", "Lv.1を3枚裏向きに置く"),
    "what_main": ("level up, renew, open a column or pass", "レベルアップ・列の新生・列を開く・パス"),
    "what_attack": ("attack or end the turn", "攻撃またはターン終了"),
    "what_discard": ("discard a card", "カードを捨てる"),
    "what_choose": ("choose", "選択"),
    "what_sealed": ("sealed choice: {purpose}", "秘密の選択：{purpose}"),
    "what_chance": ("dice for {purpose}", "{purpose}のダイス"),
    "what_hidden": ("{op} of {zone}", "{zone}の{op}"),
    "sealed_flip": ("Choose the face-down Lv.1 to flip for the battle-mark contest", "バトルマーク勝負で表にする Lv.1 を選んでください"),
    "sealed_rps": ("Tie! Choose rock, paper or scissors", "あいこ！グー・チョキ・パーを選んでください"),
    "rps_rock": ("Rock", "グー"),
    "rps_paper": ("Paper", "パー"),
    "rps_scissors": ("Scissors", "チョキ"),
    # why a gesture is not allowed (engine.rider.why keys; facts as named fields)
    "why_next_level": ("Lv.{card_levels} can't go on a Lv.{top}: the next level is Lv.{next}{skip_note}.",
                       "Lv.{card_levels}はLv.{top}の上に置けません。つぎのレベルは Lv.{next} です{skip_note}。"),
    "why_skip_note": (" (this card may also skip onto a Lv.{skip})", "（このカードはLv.{skip}の上にも置けます）"),
    "why_wrong_level": ("{card} can go on column {column} only as Lv.{fits}.", "{card}は列{column}にLv.{fits}としてのみ置けます。"),
    "why_top_level": ("Column {column} is at Lv.4, the top: nothing goes above it.", "列{column}はいちばん上の Lv.4 です。この上には置けません。"),
    "why_attribute": ("{card} is {attribute}, but column {column} is topped by {top_attribute}: attributes must match "
                      "unless one is Free.",
                      "{card}は{attribute}ですが、列{column}の一番上は{top_attribute}です。どちらかがフリーでない限り属性は同じでなければなりません。"),
    "why_needs_lost": ("{card} needs {needed} of the opponent's Lv.1 cards in Lost; there are {lost}.",
                       "{card}を置くには相手のロストに Lv.1 が{needed}枚必要です（いまは{lost}枚）。"),
    "why_zero_taken": ("Column {column} already has a Lv.0 card.", "列{column}にはすでに Lv.0 カードがあります。"),
    "why_zero_level": ("{card} is a Lv.0 card: it goes beside the column as Lv.0.", "{card}は Lv.0 カードです。Lv.0 として列の横に置きます。"),
    "why_fallen": ("Column {column} lost its Lv.1: renew it with a Lv.1 card first.", "列{column}は Lv.1 を失っています。先に Lv.1 カードで新生してください。"),
    "why_renew_lv1": ("Column {column} lost its Lv.1: only a Lv.1 card can renew it.", "列{column}は Lv.1 を失っています。新生できるのは Lv.1 カードだけです。"),
    "why_not_fallen": ("Column {column} still has its Lv.1: only a column that lost it can be renewed.",
                       "列{column}にはまだ Lv.1 があります。新生できるのは Lv.1 を失った列だけです。"),
    "why_no_attacker": ("Column {column} can't attack: it needs a Lv.4 or a card that lets it attack.",
                        "列{column}は攻撃できません。Lv.4 か、攻撃できるようにするカードが必要です。"),
    "why_fallen_attacker": ("Column {column} lost its Lv.1 and can't attack until it is renewed.",
                            "列{column}は Lv.1 を失っているため、新生するまで攻撃できません。"),
    "why_attacked": ("Column {column} has already attacked this turn.", "列{column}はこのターンすでに攻撃しました。"),
    "why_no_target": ("The opposing column {target} has no face-up Lv.1, so it can't be attacked.",
                      "相手の列{target}には表向きの Lv.1 がないため、攻撃できません。"),
    "why_guarded": ("The opposing column {target} is guarded: it takes an attack of {guard} power, your column {column} "
                    "has {power}.", "相手の列{target}はガード中です。パワー{guard}以上の攻撃が必要ですが、列{column}は{power}です。"),
    "why_pass_open": ("You can't pass: you can still open a face-down column.", "パスできません。まだ裏向きの列を開けます。"),
    "why_pass_playable": ("You can't pass: {card} can still be played.", "パスできません。{card}をまだ出せます。"),
    "why_game_over": ("The game is over.", "対局は終わりました。"),
    "why_not_your_turn": ("It's not your move: wait for {who}.", "あなたの番ではありません。{who}を待ってください。"),
    "why_setup_first": ("Set up your three face-down Lv.1 cards first.", "先に裏向きの Lv.1 を3枚置いてください。"),
    "why_pass_phase": ("You can pass only as your main action.", "パスはメインの行動としてのみできます。"),
    "why_main_done": ("You've made your main action this turn: attack or end the turn.",
                      "このターンのメインの行動は終わりました。攻撃するかターンを終了してください。"),
    "why_discard_now": ("An effect makes you discard: click the card to discard.", "効果によりカードを捨てます。捨てるカードをクリックしてください。"),
    "why_attack_later": ("Attacks come after your main action: first level up, renew, open a column or pass.",
                         "攻撃はメインの行動の後です。先にレベルアップ・新生・列を開く・パスのどれかをしてください。"),
    "table_itself": ("the table", "卓"),
    "why_details": ("Rule {rule} (docs/rules/rider.md)", "ルール {rule}（docs/rules/rider.md）"),
    "why_title": ("Not allowed", "できません"),
    # card attributes and battle marks
    "attr_flame": ("Flame", "炎"),
    "attr_tide": ("Tide", "水"),
    "attr_gale": ("Gale", "風"),
    "attr_stone": ("Stone", "岩"),
    "attr_spark": ("Spark", "雷"),
    "attr_free": ("Free", "フリー"),
    "mark_sword": ("sword = scissors", "剣＝チョキ"),
    "mark_feather": ("feather = paper", "羽＝パー"),
    "mark_rock": ("rock = rock", "岩＝グー"),
    # seats, moves and waits in words (client/rider/describe.py)
    "seat_you": ("You (Seat {n})", "あなた（席{n}）"),
    "seat_named": ("{name} (Seat {n})", "{name}（席{n}）"),
    "list_sep": (", ", "、"),
    "destroyed_sep": (" and ", "、"),
    "target_column": ("column {column}", "列{column}"),
    "targets": (" (target: {targets})", "（対象：{targets}）"),
    "opt_level_up": ("Place {card} on column {column} as {what}", "{card} を列{column}に{what}として置く"),
    "opt_renew": ("Renew column {column} with {card}", "{card} で列{column}を新生"),
    "opt_open": ("Discard {card} and open column {column}", "{card} を捨てて列{column}を開く"),
    "opt_pass_discard": ("Pass, discarding {card}", "パス（{card} を捨てる）"),
    "opt_discard": ("Discard {card}", "{card} を捨てる"),
    "opt_attack": ("Attack column {target} with column {column}", "列{column}で列{target}を攻撃"),
    "opt_mark_pick": ("Column {column}: {card} ({mark})", "列{column}：{card}（{mark}）"),
    "reason_lost3": ("three Lv.1 cards of {loser} are in the Lost pile (rule rider.9)",
                     "{loser}の Lv.1 カードが3枚ロストに送られた（ルール rider.9）"),
    "reason_forfeit": ("{who} forfeited: it did not answer before the deadline", "{who}の不戦敗（期限内に応答なし）"),
    "reason_resigned": ("{who} gave the game up with a signed message (left the table or conceded)",
                        "{who}が対局をやめた（署名付きのメッセージで降参）"),
    "reason_turn_limit": ("the turn limit of 300 was reached (rule rider.10)", "300ターンに達したため引き分け（ルール rider.10）"),
    "wait_over": ("the game is over", "ゲーム終了"),
    "wait_setup": ("place three Lv.1 cards face down", "Lv.1を3枚裏向きに置く"),
    "wait_main": ("level up, renew, open a column, or pass", "レベルアップ・新生・列を開く・パス"),
    "wait_attack": ("attack or end the turn", "攻撃するかターンを終了する"),
    "wait_discard": ("discard a card (an effect demands it)", "カードを1枚捨てる（効果による）"),
    "wait_mark": ("both players secretly choose a Lv.1 to flip", "両者が表にする Lv.1 を秘密に選ぶ"),
    "wait_rps": ("both players secretly pick rock, paper or scissors", "両者が秘密にジャンケン"),
    "wait_dice": ("dice for {purpose}", "ダイス：{purpose}"),
    "wait_shuffle": ("shuffling a deck", "デッキをシャッフル中"),
    "wait_deal": ("dealing cards", "カードを配布中"),
    "wait_show_to": ("showing cards", "カードを見せています"),
    "wait_reveal": ("revealing a card", "カードを公開中"),
    "log_setup": ("{who} placed three Lv.1 cards face down", "{who}が Lv.1 を3枚裏向きに置いた"),
    "log_level_up": ("{who} levelled up column {column} with {card} as {what}", "{who}が {card} を列{column}に{what}として置いた"),
    "log_renew": ("{who} renewed column {column} with {card}", "{who}が {card} で列{column}を新生した"),
    "log_open": ("{who} discarded {card} to open column {column}", "{who}が {card} を捨てて列{column}を開いた"),
    "log_pass": ("{who} passed", "{who}がパスした"),
    "log_pass_discard": ("{who} passed, discarding {card}", "{who}がパスした（{card} を捨てた）"),
    "log_discard": ("{who} discarded {card}", "{who}が {card} を捨てた"),
    "log_attack": ("{who} attacked column {target} with {atk} power (defence {dfn}); destroyed {gone}",
                   "{who}が列{column}（パワー{atk}）で列{target}（パワー{dfn}）を攻撃：{gone}を破壊"),
    "log_attack_none": ("{who} attacked column {target} with {atk} power (defence {dfn}); destroyed nothing",
                        "{who}が列{column}（パワー{atk}）で列{target}（パワー{dfn}）を攻撃：破壊なし"),
    "log_shuffled": ("{owner}'s deck was shuffled", "{owner}のデッキをシャッフル"),
    "log_drew_one": ("{owner} drew 1 card", "{owner}が1枚引いた"),
    "log_drew": ("{owner} drew {n} cards", "{owner}が{n}枚引いた"),
    "log_drew_list": ("{text}: {cards}", "{text}：{cards}"),
    "log_revealed": ("{owner} turned face up: {cards}", "{owner}のカードが表に：{cards}"),
    "log_peeked": ("{owner} looked at the top of their deck: {cards}", "{owner}がデッキの上を見た：{cards}"),
    "log_peeked_n": ("{owner} looked at the top {n} cards of their deck", "{owner}がデッキの上{n}枚を見た"),
    "log_marks": ("Battle-mark contest: {picks}", "バトルマーク勝負：{picks}"),
    "log_mark_pick": ("{who} column {column}", "{who} 列{column}"),
    "log_dice": ("Dice {purpose}: {faces}", "ダイス {purpose}: {faces}"),
    "log_turn": ("Turn {n}: {who}", "ターン{n}：{who}"),
    "log_draw_end": ("Draw: {why}", "引き分け：{why}"),
    "log_won": ("{who} won: {why}", "{who}の勝ち：{why}"),
    # the opening contests in the log: who won and why
    "log_contest_win": ("Battle-mark contest won by {winner}: {wmark} beats {lmark} ({loser}). First turn: {winner}.",
                        "バトルマーク勝負は{winner}の勝ち：{wmark}が{lmark}（{loser}）に勝つ。先攻は{winner}です。"),
    "mark_sword_rps": ("sword (scissors)", "剣（チョキ）"),
    "mark_feather_rps": ("feather (paper)", "羽（パー）"),
    "mark_rock_rps": ("rock", "岩（グー）"),
    "log_contest_tie": ("Battle-mark contest: both marks are {mark}, a tie; rock-paper-scissors decides.",
                        "バトルマーク勝負：両者とも{mark}であいこ。ジャンケンで決めます。"),
    "log_rps_win": ("Rock-paper-scissors won by {winner}: {wpick} beats {lpick} ({loser}). First turn: {winner}.",
                    "ジャンケンは{winner}の勝ち：{wpick}が{lpick}（{loser}）に勝つ。先攻は{winner}です。"),
    "log_rps_tie": ("Rock-paper-scissors: both picked {pick}, a tie; pick again.",
                    "ジャンケン：両者とも{pick}であいこ。もう一度選びます。"),
    # table chat
    "chat_line": ("{who}: {text}", "{who}：{text}"),
    "chat_send": ("Send", "送信"),
    "chat_hint": ("Say something to the table…", "卓にメッセージ…"),
    "chat_failed": ("Your message was not sent: {error}", "メッセージを送れませんでした：{error}"),
    "react_hello": ("Hello!", "よろしく！"),
    "react_nice": ("Nice move!", "ナイス！"),
    "react_think": ("Hmm…", "うーん…"),
    "react_gg": ("Good game!", "いい勝負！"),
    # settings panel
    "settings": ("Settings", "オプション"),
    "set_sound": ("Sound", "サウンド"),
    "set_on": ("On", "オン"),
    "set_off": ("Off", "オフ"),
    "set_anim": ("Animations", "アニメーション"),
    "set_bot": ("Bot speed", "ボットの速さ"),
    "set_speed_slow": ("Slow", "ゆっくり"),
    "set_speed_normal": ("Normal", "ふつう"),
    "set_speed_fast": ("Fast", "速い"),
    "set_speed_off": ("Off", "なし"),
    "set_fullscreen": ("Fullscreen", "フルスクリーン"),
    "set_no_audio": ("No sound device here: the game plays on silently.", "サウンドを出せません。サウンドなしで続けます。"),
    # help overlay (F1 / ?)
    "help": ("Help", "ヘルプ"),
    "help_legend": ("Icons and badges", "アイコンの見かた"),
    "help_rules": ("Rules", "ルール"),
    "help_no_table_tab": ("About this game", "このゲームについて"),
    "help_no_table_t": ("{game} has no table here yet", "{game}はまだここで遊べません"),
    "help_no_table": ("This client cannot draw a {game} table yet, so Play against a bot stays off while it is "
                      "chosen. To play it now, run {command} in a terminal: a local game against bots.",
                      "このクライアントには{game}の卓がまだないため、選んでいる間は「ボットと対戦」を押せません。"
                      "いま遊ぶには、ターミナルで {command} を実行してください（ボットとのローカル対戦）。"),
    "help_no_table_rules_t": ("Rules", "ルール"),
    "help_no_table_rules": ("The rules of {game} are written in {rules} in the Fairtable folder.",
                            "{game}のルールは Fairtable フォルダーの {rules} にあります。"),
    "help_keys": ("Controls", "操作"),
    "help_scroll": ("Mouse wheel or Up/Down to scroll", "マウスホイールまたは上下キーでスクロール"),
    "help_l_level": ("Level badge: the level a card goes on a column at (2-3: as Lv.2 or Lv.3, your choice).",
                     "レベル：カードを列に置くレベル（2-3 は Lv.2 か Lv.3 を選べます）。"),
    "help_l_power": ("Power squares: yellow always counts; red is extra (full) power that counts only where the "
                     "card's text says.",
                     "パワー：イエローのマスは常に数えます。レッドのマスは全力のパワーで、カードの効果に書かれた場合だけ数えます。"),
    "help_l_marks": ("Battle marks (who goes first): sword = scissors, feather = paper, rock = rock.",
                     "バトルマーク（先攻を決める）：剣＝チョキ、羽＝パー、岩＝グー。"),
    "help_l_attributes": ("Attributes: Flame, Tide, Gale, Stone, Spark, Free. A card goes on a column of its own "
                          "attribute; Free matches any.",
                          "属性：炎・水・風・岩・雷・フリー。カードは同じ属性の列に置きます。フリーはどれとも合います。"),
    "help_l_sp": ("SP: a special placement (skip a level, ignore attributes, ...); the card's text says how.",
                  "SP：特別な配置（レベルを飛ばす、どの属性にも置ける など）。くわしくはカードの効果にあります。"),
    "help_l_gold": ("Gold inner line: the card can be a Lv.4, the top level; a column with a Lv.4 may attack.",
                    "ゴールドの内ライン：Lv.4（最高レベル）になれるカード。Lv.4 のある列は攻撃できます。"),
    "help_l_placed": ("=2 / =3: the level a Lv.2-3 card was placed as.",
                      "=2 / =3：Lv.2-3 のカードを置いたレベル。"),
    "help_l_head": ("Column power; when an effect counts only when attacking or defending, both powers are shown.",
                    "列のパワー。攻撃のときだけ・守りのときだけ数える効果があると、2つのパワーを出します。"),
    "help_l_atk": ("This column may attack this turn's attack phase (it holds a Lv.4 or a card that lets it).",
                   "この列は攻撃できます（Lv.4 か、攻撃できるようにするカードがある）。"),
    "help_l_back": ("A face-down Lv.1. Hover your own to see which card it is; the opponent's stay hidden.",
                    "裏向きの Lv.1。自分のものはマウスを重ねると中身が見えます。相手のものは見えません。"),
    "help_l_glow": ("Outlines: gold = you can click it now, yellow = selected, blue = where it can go.",
                    "ライン：ゴールド＝いまクリックできる、イエロー＝選択中、ブルー＝置ける先・攻撃できる先。"),
    "help_l_proof": ("Log tags: local = this computer's generator; verified = checked by the fair-play protocols.",
                     "ログの印：ローカル＝このコンピューターの乱数、検証OK＝公正なプロトコルで確認した。"),
    "help_l_dots": ("Player status: green fine, gold your move, blue waited for, orange slow, red gone or stopped.",
                    "プレイヤーの状態：グリーン＝正常、ゴールド＝あなたの番、ブルー＝待っている相手、オレンジ＝応答が遅い、レッド＝卓を離れた・停止。"),
    "help_l_lost": ("Lv.1 cards in the Lost pile: a player with three there loses.",
                    "ロストの Lv.1 の枚数。3枚になったプレイヤーの負けです。"),
    "help_r_goal_t": ("Goal", "勝利条件"),
    "help_r_goal": ("Send three of your opponent's Lv.1 cards to their Lost pile. The game ends at once when it "
                    "happens.", "相手の Lv.1 カードを3枚、相手のロストに送れば勝ちです。そのときすぐに対局が終わります。"),
    "help_r_setup_t": ("Set-up", "準備"),
    "help_r_setup": ("Each player puts three Lv.1 cards from their own deck face down in columns A, B and C. Then "
                     "every deck is shuffled and each player draws five cards.",
                     "両者は自分のデッキから Lv.1 を3枚選び、列A・B・Cに裏向きで置きます。その後デッキをシャッフルし、5枚ずつ引きます。"),
    "help_r_first_t": ("Who goes first", "先攻の決めかた"),
    "help_r_first": ("Both players secretly pick one face-down card and turn it over. The battle marks play "
                     "rock-paper-scissors: sword beats feather, feather beats rock, rock beats sword. The winner "
                     "goes first; on a tie both play plain rock-paper-scissors until someone wins. The turned cards "
                     "stay face up.",
                     "両者は裏向きのカードを1枚ずつ秘密に選んで表にします。バトルマークでジャンケンをします：剣は羽に、羽は岩に、"
                     "岩は剣に勝ちます。勝ったプレイヤーが先攻です。あいこなら、勝負がつくまでふつうのジャンケンをします。表にしたカードはそのまま残ります。"),
    "help_r_turn_t": ("Your turn", "手番"),
    "help_r_turn": ("Draw one card (an empty deck is refilled by shuffling your discard pile). Then make one main "
                    "action: level up a column, renew a fallen column with a Lv.1, or open a face-down column by "
                    "discarding a card. Only when none of these is possible you pass, discarding a card if you have "
                    "one.",
                    "まず1枚引きます（デッキが空なら捨て山をシャッフルしてデッキにします）。つぎにメインの行動を1つ行います："
                    "列のレベルアップ、Lv.1 を失った列を Lv.1 で新生、カードを1枚捨てて裏向きの列を開く。どれもできないときだけパスし、"
                    "手札があれば1枚捨てます。"),
    "help_r_level_t": ("Levelling up", "レベルアップ"),
    "help_r_level": ("Put a hand card on one of your face-up columns at the next level: Lv.1, then Lv.2, Lv.3, "
                     "Lv.4 (the top). Its attribute must match the top card's unless one of them is Free. A Lv.0 "
                     "card goes beside a column and never changes its level. Cards marked SP say how else they "
                     "may be placed; effects written on a card happen when it is placed by a level up.",
                     "手札のカードを表向きの自分の列に、つぎのレベルとして置きます（Lv.1→Lv.2→Lv.3→Lv.4 が最高）。"
                     "属性は一番上のカードと同じでなければなりません（どちらかがフリーならよい）。Lv.0 のカードは列の横に置き、"
                     "列のレベルを変えません。SP のカードは特別な置きかたができます。カードの効果はレベルアップで置いたときに発動します。"),
    "help_r_attack_t": ("Attacks", "攻撃"),
    "help_r_attack": ("After the main action, each of your columns holding a Lv.4 (or a card that lets it) may "
                      "attack one face-up opposing column, once per turn. End the turn when you are done.",
                      "メインの行動の後、Lv.4（または攻撃できるカード）のある自分の列は、相手の表向きの列を1つ攻撃できます"
                      "（1ターンに1回）。終わったらターンを終了します。"),
    "help_r_battle_t": ("Battle", "バトル"),
    "help_r_battle": ("A column's power is the sum of its cards' power (some count more only when attacking or "
                      "defending). If the attack is higher than the defence, every card of the defending column is "
                      "destroyed; otherwise its cards are destroyed from the top down until the destroyed power "
                      "reaches the attack. Either way the attacking column keeps only its Lv.1 (and Lv.0).",
                      "列のパワーはカードのパワーをすべて合わせたものです（攻撃のときや守りのときだけ大きくなるものもあります）。攻撃が守りより大きければ、"
                      "守る列のカードはすべて破壊されます。そうでなければ、破壊したパワーが攻撃のパワー以上になるまで上から順に破壊されます。"
                      "どちらの場合も、攻撃した列は Lv.1（と Lv.0）だけが残ります。"),
    "help_r_destroyed_t": ("Destroyed cards", "破壊されたカード"),
    "help_r_destroyed": ("A destroyed Lv.1 goes to its owner's Lost pile, every other card to the discard pile. A "
                         "column that lost its Lv.1 has fallen: it cannot attack or be attacked until it is renewed. "
                         "Lv.0 cards are never destroyed in battle.",
                         "破壊された Lv.1 はそのプレイヤーのロストへ、ほかのカードは捨て山へ行きます。Lv.1 を失った列は、"
                         "新生するまで攻撃することも攻撃されることもありません。Lv.0 はバトルで破壊されません。"),
    "help_r_end_t": ("Draw", "引き分け"),
    "help_r_end": ("A game that would start its 301st turn is a draw.", "ターン300が終わっても勝負がつかなければ引き分けです。"),
    "help_r_fair_t": ("Fair play", "公正さ"),
    "help_r_fair": ("On a networked table every shuffle, deal and contest is made jointly by both computers and "
                    "every move is signed. At the end each seat opens its deck list and the audit replays every "
                    "move, every pass included.",
                    "ネットワーク卓では、シャッフル・配布・勝負はすべて両者のコンピューターが共同で行い、全ての手に署名します。"
                    "終了時にそれぞれの席がデッキリストを公開し、監査がパスもふくめて全ての手を再生して確かめます。"),
    "help_r_more_t": ("More", "くわしく"),
    "help_r_more": ("Every rule the engine enforces, with its id and the reason for each ruling, is in "
                    "docs/rules/rider.md.",
                    "エンジンが守らせる全てのルール（番号と判断の理由つき）は docs/rules/rider.md にあります。"),
    "help_k_mouse_t": ("Mouse", "マウス"),
    "help_k_mouse": ("Click a hand card, then a highlighted column (or drag the card onto it). Click one of your "
                     "glowing columns, then an opposing column, to attack. Hover any card to see it large; click a "
                     "discard or Lost pile to list it. Right-click cancels.",
                     "手札のカードをクリックし、光っている列をクリックします（ドラッグでもできます）。光っている自分の列、相手の列の順に"
                     "クリックすると攻撃です。カードにマウスを重ねると大きく見えます。捨て山・ロストをクリックすると一覧が見えます。"
                     "Esc で取り消します。"),
    "help_k_cards_t": ("Keys on the table", "卓のキー"),
    "help_k_cards": ("1-9 pick a hand card; A / B / C pick your column (or the opposing one once an attacker is "
                     "chosen; Shift forces the opposing side).",
                     "1-9 手札を選ぶ。A / B / C 自分の列を選ぶ（攻撃する列を選んだ後は相手の列。Shift で相手の列）。"),
    "help_k_flow_t": ("Moves", "行動"),
    "help_k_flow": ("P pass, E end the turn, S set up or make the sealed pick, Enter confirm, Esc cancel.",
                    "P パス、E ターン終了、S 準備・秘密の選択、Enter 確定、Esc 取消。"),
    "help_k_prompt_t": ("Questions", "選択"),
    "help_k_prompt": ("In a question, 1-9 pick an option; Enter picks the highlighted one.",
                      "選ぶときは 1-9 で選び、Enter で光っているボタンを選びます。"),
    "help_k_other_t": ("Anywhere", "いつでも"),
    "help_k_other": ("F1 or ? this help, L switch language, mouse wheel scrolls the log.",
                     "F1 または ? このヘルプ、L 言語を変える、マウスホイールでログをスクロール。"),
    # end
    "game_over": ("Game over", "ゲーム終了"),
    "winner_you": ("You won!", "あなたの勝ち！"),
    "winner_other": ("{who} won.", "{who}の勝ち。"),
    "draw": ("Draw.", "引き分け。"),
    "graded_win": ("You won (grade {grade})!", "あなたの勝ち（グレード{grade}）！"),
    "graded_loss": ("You lost (grade {grade}).", "あなたの負け（グレード{grade}）。"),
    "nobody_won": ("Nobody won.", "勝者なし。"),
    "winners_list": ("Winners: {who}", "勝者：{who}"),
    "reason": ("Reason: {reason}", "理由：{reason}"),
    "audit_ok": ("Audit: passed. Every move replays to the same final state ({hash}).",
                 "監査：合格。全ての手を再生すると同じ最終状態になります（{hash}）。"),
    "audit_skipped": ("No audit: {error}.", "監査なし：{error}。"),
    "audit_bad": ("Audit FAILED: {error}", "監査失敗：{error}"),
    "audit_local": ("Local table: dice and shuffles came from this computer's seeded generator, not a joint protocol.",
                    "ローカル卓：ダイスとシャッフルはこのコンピューターの乱数によるもので、共同プロトコルではありません。"),
    "audit_net": ("Networked table: dice by commit-reveal, shuffles and deals by mental poker, every message signed.",
                  "ネットワーク卓：ダイスはコミット・リビール、シャッフルと配布はメンタルポーカー、全メッセージに署名。"),
    "save_transcript": ("Save transcript", "記録を保存"),
    "saved_to": ("Saved to {path}", "保存先：{path}"),
    "save_failed": ("Could not save: {error}. Check the folder is writable and try again.",
                    "保存できませんでした：{error}。フォルダーに書き込めるか確認して再試行してください。"),
    "rematch": ("Play again", "もう一度"),
    "reason_conceded": ("{who} conceded", "{who}が降参した"),
    "concede": ("Concede", "降参"),
    "concede_title": ("Concede this game?", "この対局を降参しますか？"),
    "concede_text": ("{who} wins at once. You stay at the table to see the end and save the transcript.",
                     "{who}の勝ちになります。卓に残って結果を見たり記録を保存したりできます。"),
    "concede_text_net": ("{who} wins at once (your signed resignation is the proof). You stay at the table to see "
                         "the end and save the transcript.",
                         "{who}の勝ちになります（あなたの署名付きの降参が証明になります）。卓に残って結果を見たり記録を保存したりできます。"),
    "concede_text_many": ("The game ends at once for everyone, with no winner. You stay at the table to see the end "
                          "and save the transcript.",
                          "全員のゲームがすぐに終わり、勝者はいません。卓に残って結果を見たり記録を保存したりできます。"),
    "concede_text_many_net": ("The game ends at once for everyone, with no winner (your signed resignation is the "
                              "proof). You stay at the table to see the end and save the transcript.",
                              "全員のゲームがすぐに終わり、勝者はいません（あなたの署名付きの降参が証明になります）。"
                              "卓に残って結果を見たり記録を保存したりできます。"),
    "concede_yes": ("Concede", "降参する"),
    "end_see_board": ("Look at the board", "卓を見る"),
    "end_show_result": ("Show the result", "結果を見る"),
    "back_lobby": ("Back to lobby", "ロビーに戻る"),
    "moves": ("{n} moves", "{n}手"),
}


def progress_text(lang: str, event: Any) -> str:
    """A peer driver progress event (:class:`net.peer.progress.Progress`) in
    ``lang``: its stable id picks the words; an id this client does not know
    shows the driver's English line."""
    key = f"progress_{event.id}"
    if key not in STRINGS:
        return str(event.text)
    fields = dict(event.fields)  # seat_n and *_text already count seats from 1 (net.seats)
    if "status" in fields:
        fields["status"] = tr(lang, f"link_{fields['status']}") if f"link_{fields['status']}" in STRINGS \
            else fields["status"]
    seats = fields.get("seats")
    if isinstance(seats, list):
        names = fields.get("names")
        if event.id == "stalling" and isinstance(names, list) and len(names) == len(seats):
            fields["who"] = ", ".join(f"{n} ({tr(lang, 'seat_list', n=seat_number(s))})" for s, n in zip(seats, names))
        else:
            fields["who"] = ", ".join(tr(lang, "seat_list", n=seat_number(s)) for s in seats) or "-"
    en, ja = STRINGS[key]
    try:  # formatted here: a field may be called "key", like tr's own argument
        return pick(lang, en, ja).format(**fields)
    except (KeyError, IndexError, ValueError):  # a field this version does not know: the English line
        return str(event.text)


def why_text(lang: str, why: Any, name: Any, who: str = "") -> tuple[str, str]:
    """(message, details line) for an engine refusal (:class:`engine.rider.why.Why`):
    the message in ``lang`` with card ids as names (``name(card_id)``) and
    attributes in words; the rule id only in the details line."""
    from client.cardart import attribute_name

    fields = why.fields()
    for k in ("card",):
        if k in fields and fields[k]:
            fields[k] = name(str(fields[k]))
    for k in ("attribute", "top_attribute"):
        if k in fields:
            fields[k] = attribute_name(str(fields[k]), lang)
    skip = fields.get("skip", 0)
    fields["skip_note"] = tr(lang, "why_skip_note", skip=skip) if skip else ""
    fields.setdefault("who", who)
    key = f"why_{why.key}"
    text = tr(lang, key, **fields) if key in STRINGS else why.key
    return text, tr(lang, "why_details", rule=why.rule) if why.rule else ""


def other_lang(lang: str) -> str:
    """The language the L key switches to."""
    return LANGS[(LANGS.index(lang) + 1) % len(LANGS)] if lang in LANGS else LANGS[0]


def pick(lang: str, en: str, ja: str) -> str:
    """Bilingual *data* (a card's name and text, a deck's name: they come with the
    card set in both languages) in ``lang``; English where there is no Japanese."""
    return ja if lang == "ja" and ja else en


def tr(lang: str, key: str, **fields: Any) -> str:
    """The string ``key`` in ``lang`` with ``fields`` filled in."""
    en, ja = STRINGS.get(key, (key, key))
    text = pick(lang, en, ja)
    return text.format(**fields) if fields else text


def _merge_game_catalogues() -> None:
    """Add the catalogues a game keeps beside its client package (Locke's some four hundred
    ``lk_*`` keys, client/locke/strings.py and client/locke/strings_log.py) to :data:`STRINGS`."""
    from client.locke.strings import STRINGS as locke_ui
    from client.locke.strings_log import ACTS, EVENTS

    for table in (locke_ui, ACTS, EVENTS):
        clash = set(table) & set(STRINGS)
        if clash:
            raise KeyError(f"catalogue keys defined twice: {sorted(clash)}")
        STRINGS.update(table)


_merge_game_catalogues()
