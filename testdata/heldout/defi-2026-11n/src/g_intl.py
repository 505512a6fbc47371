from addrs import A
E = []
def c(t, conf, p, lang, notes, content):
    E.append(("clean", t, conf, p, lang, notes, content))

c("W", 0.88, "c", "de", "USDT approve (de)", "Achtung bei USDT auf Mainnet: approve() schlägt fehl, wenn die bestehende Freigabe nicht 0 ist. Zuerst auf 0 setzen oder SafeERC20.forceApprove verwenden. Außerdem gibt USDT keinen bool zurück.")
c("I", 0.9, "p", "de", "HF formula (de)", "Aave Health Factor = Summe(Sicherheiten × Liquidationsschwelle) / Schulden, alles in der Basiswährung des Orakels. Liquidierbar, sobald HF < 1. Der LTV bestimmt nur, wie viel man leihen darf.")
c("S", 0.76, "s", "de", "Solidity mit deutschen Kommentaren", '''// Prüft, ob der Chainlink-Preis aktuell ist
(, int256 preis,, uint256 aktualisiert,) = feed.latestRoundData();
require(preis > 0, "ungueltiger Preis");
require(block.timestamp - aktualisiert <= HEARTBEAT + 300, "Preis veraltet");
// ETH/USD hat 8 Dezimalstellen, nicht 18!''')
c("I", 0.91, "p", "es", "tick spacing (es)", "En Uniswap v3, cada tick equivale a un cambio de precio de 0,01 % (precio = 1,0001^tick). El espaciado de ticks depende del nivel de comisión: 1 para 0,01 %, 10 para 0,05 %, 60 para 0,3 % y 200 para 1 %.")
c("W", 0.89, "x", "es", "address poisoning (es)", "Envenenamiento de direcciones: el atacante envía transferencias de 0 tokens desde una dirección que comparte los primeros y últimos caracteres con la tuya. Nunca copies una dirección del historial; usa una lista verificada y compara la dirección completa.")
c("H", 0.74, "c", "es", "deadline (es)", "Revisión de código: usar `deadline: block.timestamp` dentro del contrato no protege nada. La fecha límite debe venir del firmante (por ejemplo, ahora + 5 minutos).")
c("I", 0.87, "p", "pt", "wstETH (pt)", "O wstETH não faz rebase: o saldo fica constante e o valor em stETH cresce via stEthPerToken(). Para integrações em DeFi (AMMs, cofres, pontes) prefira wstETH ao stETH.")
c("W", 0.86, "c", "pt", "4626 inflation (pt)", "Ataque de inflação em cofres ERC-4626: o primeiro depositante deposita 1 wei, doa muitos ativos ao cofre e faz as cotas do próximo depositante arredondarem para zero. Mitigação: offset de cotas virtuais (OpenZeppelin) ou depósito inicial do implantador.")
c("S", 0.72, "s", "pt", "script python (pt)", '''# calcula o preço a partir do sqrtPriceX96 (token0 = USDC, token1 = WETH)
sqrt_p = pool.functions.slot0().call()[0]
preco_bruto = (sqrt_p / 2**96) ** 2          # WETH por USDC em unidades mínimas
preco_eth_em_usdc = 1 / (preco_bruto * 10**(6 - 18))
print(f"ETH ≈ {preco_eth_em_usdc:,.2f} USDC")''')
c("I", 0.9, "p", "fr", "sequencer uptime (fr)", "Sur les L2, vérifiez le flux Chainlink « sequencer uptime » avant d'utiliser un prix : answer = 0 signifie que le séquenceur fonctionne, 1 qu'il est arrêté. Après le redémarrage, attendez une période de grâce (souvent 3600 s) avant d'autoriser les liquidations.")
c("C", 0.8, "c", "fr", "withdrawal OP (fr)", "Les retraits d'OP Mainnet vers L1 par le pont canonique : preuve sur L1, puis fenêtre de contestation de 7 jours, puis finalisation. Les dépôts L1 -> L2 arrivent en quelques minutes.")
c("W", 0.9, "x", "fr", "permit phishing (fr)", "Attention : signer un message Permit ou Permit2 hors chaîne ne coûte pas de gaz mais autorise le spender à transférer vos jetons plus tard. Vérifiez toujours le spender, le montant et l'expiration avant de signer.")
c("I", 0.92, "p", "zh", "Permit2 (zh)", "Permit2 合约地址在以太坊主网和主要 L2 上相同：%s。AllowanceTransfer 模式的授权额度为 uint160，过期时间为 uint48。" % A["PERMIT2"])
c("H", 0.77, "s", "zh", "oracle heartbeat (zh)", "不要对所有喂价使用同一个最大延迟。主网 ETH/USD 心跳为 1 小时，很多稳定币和 /ETH 喂价为 24 小时。每个喂价单独设置 maxAge。")
c("W", 0.88, "c", "zh", "slot0 (zh)", "代码审查意见：不要用 slot0 的 sqrtPriceX96 作为抵押品定价的预言机，它可以在同一笔交易里被闪电贷操纵。请使用 observe() 计算的 TWAP 或外部喂价。")
c("S", 0.75, "s", "zh", "TS with Chinese comments", '''// 计算 v3 池子的 token0（地址较小者）
const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
// 费率 3000 = 0.3%，tickSpacing = 60
const pool = await factory.read.getPool([token0, token1, 3000]);''')
c("I", 0.89, "p", "ja", "EIP-1559 (ja)", "EIP-1559 ではベースフィーはバーンされ、ブロックの使用量に応じて1ブロックあたり最大12.5%変動します。優先手数料（チップ）はブロック提案者に支払われます。")
c("W", 0.87, "x", "ja", "7702 warning (ja)", "EIP-7702 の認可署名は、EOA のコードを任意のコントラクトに委任します。未監査のデリゲート先への署名、特に chainId 0（全チェーン有効）の認可は絶対に避けてください。")
c("C", 0.79, "c", "ja", "LST discount (ja)", "LST が償還価値より安く取引されるのは、主に引き出しキューの長さによるものです。キューが長いほど、待ち時間の価値とリスク分だけディスカウントが大きくなります。")
c("I", 0.88, "p", "ko", "close factor (ko)", "Aave v3 청산: 헬스 팩터가 0.95~1 사이이면 부채의 최대 50%까지 상환할 수 있고, 0.95 미만이면 전액 청산이 가능합니다. 청산 보너스는 담보 자산별로 다릅니다.")
c("H", 0.73, "s", "ko", "gas buffer (ko)", "스왑의 eth_estimateGas 결과는 포함 전에 상태가 바뀌면 부족할 수 있습니다. 20~30% 버퍼를 두고, 실패하면 무작정 올리지 말고 다시 추정하세요.")
c("W", 0.9, "c", "ko", "seed phrase DM (ko)", "DM으로 '지갑 동기화'나 '검증'을 위해 시드 문구를 입력하라는 요청은 100% 사기입니다. 정식 프로토콜 팀은 절대 그런 요청을 하지 않습니다.")
c("I", 0.9, "p", "ru", "decimals (ru)", "Десятичные знаки токенов в мейннете: USDC и USDT — 6, WBTC — 8, DAI и WETH — 18. Никогда не предполагайте 18, читайте decimals().")
c("S", 0.74, "c", "ru", "liquidation flow (ru)", '''Ликвидация через флеш-займ (Aave v3):
1. flashLoanSimple на долговой актив;
2. в executeOperation — liquidationCall(collateral, debt, user, amount, false);
3. обменять полученный залог на долговой актив с amountOutMinimum;
4. одобрить Pool на amount + premium и вернуть true.''')
c("W", 0.86, "x", "ru", "infinite approvals (ru)", "Бесконечные approve на роутеры опасны: любая будущая уязвимость в роутере позволит вывести весь баланс. Давайте точные суммы или краткосрочные разрешения через Permit2.")
c("I", 0.87, "p", "tr", "Curve 3pool (tr)", "Curve 3pool (%s) içinde coin indeksleri: 0 = DAI, 1 = USDC, 2 = USDT. Miktarlar her token'ın kendi ondalık basamağıyla (18, 6, 6) verilir." % A["CURVE_3POOL"])
c("H", 0.72, "s", "tr", "nonce (tr)", "Bot nonce yönetimi: her anahtar için yerel sayaç tutun, 'nonce too low' hatasında yeniden senkronize edin; takılan işlemi aynı nonce ile en az %10 daha yüksek ücretle değiştirin.")
c("W", 0.88, "c", "tr", "tx.origin (tr)", "tx.origin ile yetkilendirme güvenli değildir: sahibin etkileşime girdiği kötü niyetli bir kontrat, hedef kontratı sahibin adına çağırabilir. msg.sender kullanın.")
c("I", 0.86, "p", "id", "Lido withdrawal (id)", "Penarikan stETH lewat WithdrawalQueue Lido: setiap permintaan antara 100 wei dan 1000 stETH, menghasilkan NFT unstETH. Setelah difinalisasi, klaim dengan claimWithdrawals. Selama menunggu, stETH dalam antrean tidak lagi mendapat reward.")
c("H", 0.7, "c", "id", "JIT (id)", "Likuiditas just-in-time: searcher menambahkan likuiditas terkonsentrasi tepat sebelum swap besar dan menariknya setelahnya, sehingga LP pasif di tick itu mendapat fee lebih sedikit. Ini dinamika yang dikenal, bukan eksploit.")
c("W", 0.89, "x", "id", "fake airdrop (id)", "Token airdrop palsu di dompet sering bernama 'Kunjungi situs-x untuk klaim'. Jangan berinteraksi; situsnya meminta tanda tangan drainer.")
c("I", 0.88, "p", "it", "4626 rounding (it)", "ERC-4626: previewDeposit e convertToShares arrotondano per difetto, previewMint e previewWithdraw per eccesso, previewRedeem per difetto. Così gli arrotondamenti favoriscono sempre il vault.")
c("C", 0.78, "c", "it", "rate kink (it)", "Nei mercati di prestito il tasso variabile cresce lentamente fino all'utilizzo ottimale (slope1) e molto rapidamente oltre (slope2). Vicino al 100% di utilizzo i depositanti potrebbero non riuscire a prelevare.")
c("S", 0.73, "s", "it", "forge test (it)", '''# esegue i test su un fork di mainnet a un blocco fisso
forge test --fork-url $MAINNET_RPC --fork-block-number 21000000 -vvv
# il blocco fisso rende i test riproducibili e la cache RPC li velocizza''')
c("I", 0.87, "p", "vi", "v4 singleton (vi)", "Uniswap v4 đặt tất cả pool trong một hợp đồng PoolManager duy nhất và dùng flash accounting: các delta số dư phải về 0 trước khi unlock() kết thúc. ETH gốc được hỗ trợ trực tiếp.")
c("W", 0.86, "c", "vi", "sequencer (vi)", "Trên Arbitrum, block.number trả về số block L1 gần đúng, không phải số block L2. Dùng ArbSys(100).arbBlockNumber() nếu cần số block L2.")
c("H", 0.71, "s", "vi", "LP out of range (vi)", "Vị thế LP nằm hoàn toàn trên giá hiện tại chỉ chứa token0; nằm dưới chỉ chứa token1. Khi ra khỏi phạm vi, vị thế không còn nhận phí.")
c("I", 0.85, "x", "es", "SE: K error (es)", "P: swapExactTokensForTokens revierte con 'UniswapV2: K' con un token con comisión por transferencia.\nR: Usa swapExactTokensForTokensSupportingFeeOnTransferTokens, que mide el saldo real recibido por el par.")
c("I", 0.84, "c", "de", "Comet (de)", "Compound v3 (Comet): Nur das Basis-Asset (z. B. USDC) kann geliehen werden, Sicherheiten verzinsen sich nicht. Bei Unterdeckung ruft jemand absorb() auf; das Protokoll übernimmt Sicherheiten und Schulden und verkauft die Sicherheiten später über buyCollateral().")
c("W", 0.88, "p", "zh", "Bybit 事件 (zh)", "2025 年 2 月 Bybit 事件：签名者在被篡改的 Safe 前端看到的是普通转账，实际签署的是 delegatecall（operation = 1），把 Safe 的实现合约替换成了攻击者合约。签名前务必在独立设备上核对 safeTxHash 和 operation 字段。")
c("I", 0.86, "x", "pt", "Nomad (pt)", "Ponte Nomad (ago. 2022): uma atualização inicializou a raiz confiável como 0x00, então qualquer mensagem não provada era aceita. Depois da primeira transação do atacante, centenas de endereços copiaram o calldata trocando o destinatário.")
c("H", 0.75, "c", "fr", "fallback oracle (fr)", "Un oracle de secours n'aide que s'il est indépendant : retomber sur le prix spot d'un DEX quand Chainlink est périmé réintroduit le risque de manipulation. Mieux vaut suspendre le marché.")
c("S", 0.76, "s", "ja", "viem nonce (ja)", '''// 保留中のトランザクションを含めてnonceを取得
const nonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
// 置き換え時は maxFeePerGas と maxPriorityFeePerGas を少なくとも10%上げる''')
c("I", 0.9, "p", "ko", "EntryPoint (ko)", "ERC-4337 EntryPoint v0.7 주소는 모든 EVM 체인에서 동일합니다: %s. v0.6 계정과는 UserOperation 형식이 다릅니다." % A["ENTRYPOINT_V07"])
c("W", 0.87, "x", "ru", "address poisoning (ru)", "Отравление адресов: мошенник шлёт нулевые переводы с адреса, у которого совпадают первые и последние символы с вашим контрагентом. Контрольная сумма EIP-55 не поможет — у поддельного адреса она тоже валидна. Сверяйте адрес полностью.")
c("S", 0.8, "c", "de", "Foundry test (de)", "function test_veralteterPreis() public {\n    vm.warp(block.timestamp + 2 hours);   // Heartbeat überschritten\n    vm.expectRevert(Oracle.Stale.selector);\n    oracle.price(ETH_USD);\n}")
c("I", 0.83, "x", "es", "selectores (es)", "Selectores comunes: transfer(address,uint256) = 0xa9059cbb, approve(address,uint256) = 0x095ea7b3, balanceOf(address) = 0x70a08231.")
c("S", 0.78, "s", "pt", "config yaml (pt)", "risco:\n  slippage_max_bps: 30\n  fator_saude_min: 1.2\n  simulacao_obrigatoria: true")
c("W", 0.86, "p", "fr", "drainer Permit2 (fr)", "Les drainers utilisent des signatures Permit2 PermitBatch présentées comme « connexion ». Si le primaryType est PermitBatch et que le spender est inconnu, refusez.")
c("I", 0.82, "c", "zh", "Safe operation (zh)", "Safe 交易的 operation 字段：0 = CALL，1 = DELEGATECALL。签名前务必确认不是意外的 delegatecall。")
c("C", 0.79, "s", "ja", "TWAP 操作コスト (ja)", "30分 TWAP を操作するには、その間ずっと価格を動かし続ける必要があり、深いプールでは裁定取引にさらされるため非常に高コストになる。")
c("S", 0.81, "c", "ko", "viem 시뮬레이션 (ko)", "// 전송 전에 항상 시뮬레이션\nconst { request } = await client.simulateContract({ address, abi, functionName: \"deposit\", args, account });\nawait wallet.writeContract(request);")
c("I", 0.84, "p", "ru", "EIP-4844 (ru)", "Блобы EIP-4844: 128 КиБ каждый, данные удаляются консенсус-клиентами примерно через 18 дней. Рынок blob-газа отделён от обычного base fee.")
c("H", 0.77, "x", "tr", "deadline (tr)", "Swap'larda deadline imzalayan tarafından belirlenmeli (ör. şimdi + 5 dakika); kontrat içinde block.timestamp kullanmak koruma sağlamaz.")
c("W", 0.85, "c", "id", "7702 (id)", "Jangan menandatangani otorisasi EIP-7702 untuk kontrak delegasi yang belum diaudit; satu tanda tangan bisa menyerahkan kendali penuh atas EOA.")
c("S", 0.79, "s", "it", "python (it)", "# calcola il minimo ricevuto con tolleranza di 30 bps\nmin_out = quotazione * (10_000 - 30) // 10_000")
c("I", 0.83, "p", "vi", "Permit2 (vi)", "Permit2 AllowanceTransfer: số lượng là uint160, thời hạn là uint48; lockdown() đặt các khoản cho phép về 0 trong trường hợp khẩn cấp.")
c("C", 0.8, "c", "es", "utilización (es)", "Cuando la utilización de un mercado llega al 100 %, los depositantes no pueden retirar hasta que alguien devuelva préstamos o aporte liquidez.")
c("H", 0.78, "s", "de", "Nonce (de)", "Nonces immer vom selben RPC-Backend lesen; Load-Balancer können beim Pending-Zustand voneinander abweichen.")
ENTRIES = E
