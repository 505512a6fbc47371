package validate

import (
	"regexp"
	"strings"
)

// The blended-observation model in the languages an agent's inputs arrive
// in besides English: the same parts (an observation, an inferential
// connective, a conclusion that commits everything, calls a position safe
// or takes a maximum) in each language's ordinary words for "therefore",
// "all", "safe" and "maximum" (dictionary words, not any data set's
// phrasing). Text reaches these lower-cased; scripts without spaces match
// without letter boundaries.

var (
	reInferenceI18n = regexp.MustCompile(lb + `(?:donc|par\s+conséquent|c'est\s+pourquoi|daher|deshalb|deswegen|folglich|somit|por\s+lo\s+tanto|así\s+que|por\s+eso|por\s+consiguiente|portanto|por\s+isso|logo|quindi|perciò|dunque|pertanto|dus|daarom|поэтому|значит|следовательно|отже|тому|dlatego|więc|zatem|bu\s+yüzden|dolayısıyla|vì\s+vậy|do\s+đó|jadi|maka|oleh\s+karena\s+itu|لذلك|لذا|इसलिए|अतः)(?:[^\pL\pN]|$)` +
		`|所以|因此|因而|于是|这证明|这说明|这表明|だから|したがって|そのため|ゆえに|그래서|따라서|그러므로`)
	reObservationI18n = regexp.MustCompile(`\d|` + lb + `(?:heute|gestern|diese\s+woche|aujourd'hui|hier|cette\s+semaine|hoy|ayer|esta\s+semana|hoje|ontem|esta\s+semana|oggi|ieri|questa\s+settimana|vandaag|gisteren|сегодня|вчера|на\s+этой\s+неделе|dzisiaj|wczoraj|bugün|dün|hôm\s+nay|hari\s+ini|اليوم|आज)(?:[^\pL\pN]|$)` +
		`|今天|昨天|本周|今日|昨日|今週|오늘|어제|이번\s*주` +
		// A past run of experience: last month, without incident.
		`|` + lb + `(?:letzte[nrs]?|dernier|dernière|pasado|pasada|passado|passada|scorso|scorsa|прошл\pL*|senza\s+incidenti|sin\s+incidentes|sans\s+incident|sem\s+incidentes|ohne\s+zwischenfälle)(?:[^\pL\pN]|$)|上个月|上周|先月|先週|지난|从未|过去|一直|過去|一度も`)
	reLeapI18n = regexp.MustCompile(lb + `(?:tout|toute|toutes|tous|alle|alles|gesamte[nrs]?|ganze[nrs]?|todo|toda|todos|todas|tutto|tutta|tutti|tutte|все|весь|всю|всё|вся|wszystkie|wszystko|całe|całą|tüm|hepsi|tất\s+cả|toàn\s+bộ|semua|seluruh|كل|جميع|सभी|पूरा|पूरी|sicher|sûr|sûre|sans\s+risque|seguro|segura|sin\s+riesgo|sicuro|sicura|senza\s+rischi|sem\s+risco|veilig|безопасно|без\s+риска|bezpieczn\pL*|güvenli|an\s+toàn|aman|آمن|सुरक्षित|maximal\pL*|maximum|maximale?|máximo|máxima|massimo|massima|максимальн\pL*|maksymaln\pL*|maksimum|tối\s+đa|أقصى|अधिकतम` +
		// A universal generalisation or a certainty: always, guaranteed,
		// proves, sustainable.
		`|immer|toujours|siempre|sempre|altijd|всегда|zawsze|her\s+zaman|luôn\s+luôn|selalu|garanti\pL*|garantiert|garantizad\pL*|garantid\pL*|garantit\pL*|гарантир\pL*|gwarantowan\pL*|dimostra|demuestra|prouve|beweist|доказывает|durable|nachhaltig|sostenible|sustentável|sostenibile)(?:[^\pL\pN]|$)` +
		`|` + lb + `(?:apalancamiento|con\s+leva|mit\s+hebel|avec\s+(?:effet\s+de\s+)?levier|с\s+плечом|com\s+alavancagem|seguirá\s+\pL+|continuará|continuera|wird\s+weiter|продолжит|continuerà|vai\s+continuar)(?:[^\pL\pN]|$)` +
		`|杠杆|レバレッジ|레버리지|全部|所有|一切|全额|安全|最大|すべて|全て|全額|安全|最大|모든|전부|안전|최대|总是|总会|永远|一定|保证|必ず|いつも|常に|保証|証明|항상|반드시|보장`)
	reDeniedI18n = regexp.MustCompile(lb + `(?:nicht|kein\pL*|pas|jamais|no|nunca|non|mai|não|nooit|niet|не|нет|ни|nie|değil|asla|không|tidak|bukan|لا|ليس|नहीं|कभी)(?:[^\pL\pN]|$)|不|没|別|ない|않|못`)
)

// The dismissals and universals of blend_dismiss.go and "never" in other
// languages: unnecessary, superfluous, without a limit, no need, skip,
// remove, will not fail, never.
var (
	reDismissedI18n = regexp.MustCompile(lb + `(?:inutile|inutiles|überflüssig\pL*|unnötig\pL*|superflu\pL*|innecesari\pL*|desnecessári\pL*|не\s+нужн\pL*|sin\s+límite|sans\s+limite|senza\s+limit\pL*|sem\s+limite|ohne\s+limit\pL*|no\s+hace\s+falta|no\s+necesita\pL*|não\s+precisa\pL*|n'a\s+pas\s+besoin|non\s+serve|abgeschaltet|désactiv\pL*|desactiv\pL*|disattiv\pL*|quel(?:le)?s?\s+que\s+soit|independientemente|unabhängig\s+von|независимо|sofort|instantan\pL*|istantane\pL*|мгновенн\pL*)(?:[^\pL\pN]|$)` +
		`|不需要|不必|去掉|跳过|不会失败|没有任何风险|即时|上限なし|バッファなし|必要ない|即時|필요\s*없`)
	reNeverI18n = regexp.MustCompile(lb + `(?:никогда|jamais|nunca|niemals|nooit|nie|non\s+può\s+essere|non\s+possono\s+essere|ne\s+peut\s+(?:pas\s+)?être|no\s+puede\s+ser|kann\s+nicht|не\s+может|não\s+pode\s+ser)(?:[^\pL\pN]|$)|永远不|从不|決して|不可能`)
)

// blendedI18n returns the leap of a sentence s (lower case) that draws an
// all-in, safe or maximal conclusion from an observation in another
// language, or "". As in English, a sentence that follows an observation
// without a connective is read as drawn from it.
func blendedI18n(s, prev string) string {
	for _, m := range reInferenceI18n.FindAllStringIndex(s, -1) {
		if !reObservationI18n.MatchString(s[:m[0]]) && !reObservationI18n.MatchString(prev) {
			continue
		}
		if leap := leapI18n(s, m[1]); leap != "" {
			return leap
		}
	}
	if prev != "" && reObservationI18n.MatchString(prev) && !reInferenceI18n.MatchString(s) && !reObservationI18n.MatchString(s) {
		return leapI18n(s, 0, reDismissedI18n, reNeverI18n)
	}
	return ""
}

// leapI18n returns the leap s states after offset from, not denied, or
// "". "Never" opening its clause is advice ("por lo tanto, nunca …").
// Without a connective only a dismissal or "never" is read as a leap: a
// bare "all", "safe" or "maximum" after a number is too often advice.
func leapI18n(s string, from int, res ...*regexp.Regexp) string {
	concl := s[from:]
	if len(res) == 0 {
		res = []*regexp.Regexp{reLeapI18n, reDismissedI18n, reNeverI18n}
	}
	for _, re := range res {
		l := re.FindStringIndex(concl)
		if l == nil {
			continue
		}
		before := concl[:l[0]]
		if re == reNeverI18n {
			clause := s[:from+l[0]]
			if k := strings.LastIndexAny(clause, ",;:、，"); k >= 0 {
				clause = clause[k+1:]
			}
			if strings.TrimSpace(reInferenceI18n.ReplaceAllString(clause, "")) == "" {
				continue
			}
		} else if k := strings.LastIndexAny(before, ",;:、，"); reDeniedI18n.MatchString(before[k+1:]) {
			continue
		}
		return strings.TrimSpace(concl[l[0]:l[1]])
	}
	return ""
}
