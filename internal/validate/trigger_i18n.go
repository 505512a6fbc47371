package validate

import (
	"strings"

	"github.com/wardhq/ward/internal/sieve"
)

// The triggered-override model in the languages an agent's inputs arrive
// in besides English: the same two parts (a condition on an input's
// wording; a weakened safety control or a payment to a supplied address)
// in German, French, Spanish, Portuguese, Italian, Dutch, Russian,
// Ukrainian, Polish, Turkish, Chinese, Japanese, Korean, Hindi,
// Vietnamese, Indonesian and Arabic. The words are each language's
// ordinary vocabulary for messages, conditions, limits, logs, keys and
// payments (dictionary words and their common inflections), not any data
// set's phrasing. Scripts without spaces between words (Chinese,
// Japanese) match without word boundaries; the others use letter
// boundaries (Go's \b only knows ASCII letters).
//
// Text reaches these after canonicalisation (lower case, homoglyphs and
// invisible characters removed), so the patterns are lower case.

// lb is a letter boundary before a word in any script.
const lb = `(?:^|[^\pL\pN])`

var (
	// "if", "when", "whenever" and the like.
	reCondI18n = sieve.MustCompile(lb + `(?:wenn|falls|sobald|si|lorsque|quand|cuando|siempre\s+que|se|quando|caso|sempre\s+che|als|wanneer|zodra|если|когда|как\s+только|якщо|коли|jeśli|jeżeli|gdy|kiedy|eğer|ise|khi|nếu|jika|apabila|bila|ketika|إذا|اذا|عندما|अगर|यदि|जब)` + `(?:[^\pL\pN]|$)` +
		`|如果|若是|若|一旦|当|每当|もし|場合|とき|時は|際は|만약|경우|때는|때에는|면`)
	// An input noun: message, request, instruction, order, ticket, memo,
	// note, comment, command, text, tag.
	reInputI18n = sieve.MustCompile(lb + `(?:nachricht|anfrage|auftrag|anweisung|befehl|ticket|notiz|kommentar|betreff|message|demande|requête|instruction|ordre|commande|consigne|note|mensaje|solicitud|petición|instrucción|orden|pedido|nota|comentario|mensagem|solicitação|instrução|ordem|comando|messaggio|richiesta|istruzione|ordine|bericht|verzoek|opdracht|сообщени\pL*|запрос\pL*|инструкци\pL*|приказ\pL*|заявк\pL*|команд\pL*|текст\pL*|повідомленн\pL*|wiadomoś\pL*|zapytani\pL*|polecen\pL*|zleceni\pL*|mesaj\pL*|talimat\pL*|istek\pL*|emir\pL*|tin\s+nhắn|yêu\s+cầu|lệnh|pesan|permintaan|perintah|رسالة|الرسالة|طلب|الطلب|تعليمات|संदेश|अनुरोध|निर्देश|आदेश)` +
		`|消息|信息|请求|指令|指示|订单|留言|备注|工单|メッセージ|依頼|リクエスト|注文|メモ|チケット|コメント|메시지|요청|지시|주문|메모|티켓|명령`)
	// "contains", "says", "mentions", "is written", "carries the tag".
	reMatchI18n = sieve.MustCompile(lb + `(?:enthält|enthalten|steht|lautet|erwähnt|trägt|contient|comporte|mentionne|dit|porte|contiene|contenga|incluye|incluya|dice|diga|escriba|menciona|lleva|contém|contiver|contenha|inclui|incluir|disser|diz|escrever|menciona|contiene|contenga|include|dice|dica|riporta|bevat|zegt|vermeldt|содерж\pL*|есть|указан\pL*|встреча\pL*|написан\pL*|упомина\pL*|місти\pL*|zawiera\pL*|içer\pL*|geçer|chứa|có\s+chữ|berisi|mengandung|memuat|يحتوي|تحتوي|ورد|ورود|लिखा|शामिल|हो)` + `(?:[^\pL\pN]|$)` +
		`|包含|含有|出现|写着|写有|提到|带有|含まれ|書かれ|入って|記載|포함|들어|적혀|들어가`)
	// A quoted token in any script's quotation marks.
	reQuotedI18n = sieve.MustCompile(`["“«„‘「『‹][^"”»“’」』›]{1,40}["”»“’」』›]`)

	// Weakened safety controls and payments to a supplied address.
	reUnsafeI18n = []*sieve.Regexp{
		// Turn off / skip / ignore a limit, log, check or simulation.
		sieve.MustCompile(lb + `(?:deaktivier\pL*|abschalt\pL*|schalte\pL*\s+\pL*\s*ab|überspring\pL*|ignorier\pL*|aufheb\pL*|désactiv\pL*|ignor\pL*|saute[rz]?|sautez|suspend\pL*|supprim\pL*|desactiv\pL*|deshabilit\pL*|omit\pL*|omite|omita|salt\pL*|desliga\pL*|desligue|pul\pL*|disattiv\pL*|disabilit\pL*|salta\pL*|sospend\pL*|uitschakel\pL*|schakel\pL*\s+uit|overslaan|sla\s+over|отключ\pL*|выключ\pL*|пропуст\pL*|пропуска\pL*|игнориру\pL*|сним\pL*|вимкн\pL*|пропусті\pL*|wyłącz\pL*|pomiń\pL*|zignoruj\pL*|devre\s+dışı|kapat\pL*|atla\pL*|yok\s+say\pL*|tắt|bỏ\s+qua|nonaktifkan|matikan|lewati|abaikan|عطّل|عطل|تجاهل|أوقف|تخطى|बंद\s+कर\pL*|छोड़\pL*|अनदेखा)` +
			`(?:[^.!?]{0,40}?)(?:limit\pL*|grenze\pL*|protokoll\pL*|simulation\pL*|prüfung\pL*|kontroll\pL*|journal\pL*|vérification\pL*|contrôle\pL*|límite\pL*|registro\pL*|simulaci\pL*|simulaç\pL*|verificaci\pL*|verificaç\pL*|comprobaci\pL*|verifica\pL*|controll\pL*|simulazion\pL*|registrazion\pL*|logboek|controle\pL*|лимит\pL*|ограничени\pL*|журнал\pL*|лог\pL*|симуляци\pL*|проверк\pL*|обмежен\pL*|перевірк\pL*|limit\pL*|dziennik\pL*|symulacj\pL*|weryfikacj\pL*|sınır\pL*|kayıt\pL*|simülasyon\pL*|kontrol\pL*|giới\s+hạn|nhật\s+ký|mô\s+phỏng|kiểm\s+tra|batas\pL*|simulasi|pemeriksaan|الحدود|حدود|السجل|المحاكاة|التحقق|सीमा\pL*|लॉग|सिमुलेशन|जांच|जाँच)`),
		sieve.MustCompile(lb + `schakel\pL*\s+(?:\pL+\s+){0,3}?(?:limiet\pL*|controle\pL*|logboek|logging|simulatie\pL*|beveiliging\pL*)\s+uit`),
		sieve.MustCompile(`(?:关闭|跳过|忽略|禁用|取消|停用|解除|無効|スキップ|省略|無視|停止|解除|오프|끄|건너뛰|비활성|무시|해제)[^。！？]{0,12}?(?:限制|限额|日志|记录|模拟|检查|验证|审计|制限|上限|ログ|記録|シミュレーション|チェック|確認|検証|제한|한도|로그|기록|시뮬레이션|검사|확인|검증)` +
			`|(?:限制|限额|日志|记录|模拟|检查|验证|审计|制限|上限|ログ|記録|シミュレーション|チェック|確認|検証|제한|한도|로그|기록|시뮬레이션|검사|확인|검증)[^。！？]{0,12}?(?:关闭|跳过|忽略|禁用|取消|停用|解除|無効|スキップ|省略|無視|停止|を外|건너뛰|끄|비활성|무시|해제)`),
		// Unlimited approvals.
		sieve.MustCompile(lb + `(?:unbegrenzt\pL*|unbeschränkt\pL*|illimité\pL*|ilimitad\pL*|illimitat\pL*|onbeperkt\pL*|неограниченн\pL*|безлимитн\pL*|необмежен\pL*|nieograniczon\pL*|sınırsız|không\s+giới\s+hạn|tanpa\s+batas|غير\s+محدود|असीमित)` +
			`|无限|無限|無制限|무제한`),
		// Maximum leverage.
		sieve.MustCompile(lb + `(?:maximale\pL*\s+hebel\pL*|hebel\pL*\s+maximal|levier\s+maxim\pL*|effet\s+de\s+levier\s+maxim\pL*|apalancamiento\s+máxim\pL*|máximo\s+apalancamiento|alavancagem\s+máxim\pL*|leva\s+massim\pL*|massima\s+leva|maximale\s+hefboom|максимальн\pL*\s+(?:кредитн\pL*\s+)?плеч\pL*|максимальн\pL*\s+леверидж\pL*|maksymaln\pL*\s+dźwigni\pL*|maksimum\s+kaldıraç|đòn\s+bẩy\s+tối\s+đa|leverage\s+maksimum|أقصى\s+رافعة|अधिकतम\s+लीवरेज)` +
			`|最高杠杆|最大杠杆|最大レバレッジ|最高レバレッジ|レバレッジを最大|최대\s*레버리지`),
		// Slippage of 20 % or more, in any language's word for slippage.
		sieve.MustCompile(`(?:slippage|schlupf|glissement|deslizamiento|derrapagem|deslizamento|scivolamento|slippen|toleranz|tolérance|tolerancia|tolerância|tolleranza|допуск\pL*|проскальзывани\pL*|прослизанн\pL*|poślizg\pL*|kayma|trượt\s+giá|selip|الانزلاق|स्लिपेज|滑点|スリッページ|슬리피지)[^.!?。]{0,30}?(?:[2-9]\d|100)\s*%` +
			`|(?:[2-9]\d|100)\s*%[^.!?。]{0,30}?(?:slippage|glissement|deslizamiento|derrapagem|scivolamento|проскальзывани\pL*|滑点|スリッページ|슬리피지|स्लिपेज)`),
		// Keys and recovery phrases, whatever the verb: no input's wording
		// makes them shareable.
		sieve.MustCompile(lb + `(?:wiederherstellungsphrase|seed-phrase|privat\pL*\s+schlüssel|phrase\s+de\s+récupération|clé\s+privée|phrase\s+secrète|phrase\s+mnémonique|frase\s+de\s+recuperaci[oó]n|clave\s+privada|frase\s+semilla|frase\s+de\s+recuperação|chave\s+privada|frase\s+di\s+recupero|chiave\s+privata|herstelzin|privésleutel|фраз\pL*\s+восстановлени\pL*|сид-фраз\pL*|приватн\pL*\s+ключ\pL*|секретн\pL*\s+ключ\pL*|мнемоническ\pL*|фраз\pL*\s+відновленн\pL*|klucz\pL*\s+prywatn\pL*|fraz\pL*\s+odzyskiwani\pL*|özel\s+anahtar|kurtarma\s+ifadesi|khóa\s+riêng|cụm\s+từ\s+khôi\s+phục|kunci\s+pribadi|frasa\s+pemulihan|المفتاح\s+الخاص|عبارة\s+الاسترداد|निजी\s+कुंजी|सीड\s+फ्रेज|रिकवरी\s+फ्रेज|रिकवरी\s+वाक्यांश)` +
			`|助记词|私钥|恢复短语|复原词|秘密鍵|シードフレーズ|リカバリーフレーズ|復元フレーズ|개인\s*키|시드\s*문구|복구\s*문구|니모닉`),
		// A payment or transfer to an address the entry supplies.
		sieve.MustCompile(`(?:` + lb + `(?:überweis\pL*|sende\pL*|transferier\pL*|envoy\pL*|transfér\pL*|vire[zr]?|virement|envía\pL*|envia\pL*|enviar|transfier\pL*|transfer\pL*|manda\pL*|invia\pL*|trasferisc\pL*|trasferi\pL*|stuur|verstuur|переведи\pL*|перевести|переведите|отправ\pL*|перекажі\pL*|надішл\pL*|prześlij|przelej|wyślij|gönder\pL*|aktar\pL*|chuyển|gửi|kirim\pL*|pindahkan|أرسل|حوّل|حول|भेज\pL*|ट्रांसफर)` +
			`|转账|转到|转入|转给|发送|汇款|汇到|送金|送って|移して|振り込|송금|보내|이체)[^。！？]{0,80}?0x[0-9a-f]{6,}`),
		// The same where the verb follows its object (Japanese, Korean,
		// Hindi, Turkish).
		sieve.MustCompile(`0x[0-9a-f]{6,}[^.!?。！？]{0,24}?(?:送金|送って|送る|振り込|移して|移す|转账|转入|转到|汇款|송금|이체|보내|भेज\pL*|ट्रांसफर|gönder\pL*|aktar\pL*)`),
	}
)

// wordingConditionI18n is wordingCondition for the languages above.
func wordingConditionI18n(s string) bool {
	// An input noun with a matching verb conditions by itself ("requests
	// that contain …", "依頼では"), as in English.
	if reInputI18n.MatchString(s) && reMatchI18n.MatchString(s) {
		return true
	}
	if !reCondI18n.MatchString(s) {
		return false
	}
	return reQuotedI18n.MatchString(s) || tagToken(s) || hasEmoji(s)
}

// A negation just before the action ("не отключать", "不要跳过",
// "nunca desactive") or, where it follows the verb, just after it
// ("スキップしない", "해제하지 마세요").
var (
	reDeniedBeforeI18n = sieve.MustCompile(lb + `(?:nicht|nie|niemals|kein\pL*|ne|pas|jamais|no|nunca|não|nao|non|mai|niet|nooit|не|нет|никогда|ні|ніколи|nie|nigdy|asla|değil|không|đừng|jangan|tidak|لا|أبدا|नहीं|मत|कभी)(?:[^\pL\pN]+\pL+){0,3}?[^\pL\pN]*$` +
		`|(?:不|别|不要|勿|切勿|从不|決して)[^。！？]{0,3}$`)
	reDeniedAfterI18n = sieve.MustCompile(`^[^。！？.]{0,6}?(?:しない|しません|せず|ないで|禁止|않|마세요|말고|말아)`)
)

// unsafeActionI18n is unsafeAction for the languages above.
func unsafeActionI18n(s string) string {
	for _, re := range reUnsafeI18n {
		for _, m := range re.FindAllStringIndex(s, -1) {
			before := s[:m[0]]
			if len(before) > 60 {
				before = before[len(before)-60:]
			}
			if reDeniedBeforeI18n.MatchString(strings.ToValidUTF8(before, "")) || reDeniedAfterI18n.MatchString(s[m[1]:]) {
				continue
			}
			return s[m[0]:m[1]]
		}
	}
	return ""
}
