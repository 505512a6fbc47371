package chain

import "sync"

// ERC8004IdentityABI is ERC-8004's Identity Registry (Trustless Agents, the
// revision deployed at 0x8004A169FB4a3325136EB29fA0ceB6D2e539a432 on
// mainnet and published with agent0-sdk 1.7.1): agents as ERC-721 tokens
// whose tokenURI is the agent URI, registration, metadata and the agent
// wallet; plus ERC-721's balanceOf and ERC721Enumerable's
// tokenOfOwnerByIndex, which a registry may lack.
func ERC8004IdentityABI() *ABI { return erc8004IdentityABI() }

// ERC8004ReputationABI is ERC-8004's Reputation Registry (same revision,
// 0x8004BAa17C55a88189AE136b182e5fdA19dE9b63 on mainnet): feedback as a
// signed fixed-point value with valueDecimals, two string tags, an
// endpoint and a feedback file; summaries and reads.
func ERC8004ReputationABI() *ABI { return erc8004ReputationABI() }

var (
	erc8004IdentityABI   = sync.OnceValue(func() *ABI { return mustParseABI(erc8004IdentityJSON) })
	erc8004ReputationABI = sync.OnceValue(func() *ABI { return mustParseABI(erc8004ReputationJSON) })
)

const erc8004IdentityJSON = `[
{"type":"function","name":"ownerOf","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"isApprovedForAll","stateMutability":"view","inputs":[{"name":"owner","type":"address"},{"name":"operator","type":"address"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"getApproved","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"tokenURI","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"register","stateMutability":"nonpayable","inputs":[],"outputs":[{"name":"agentId","type":"uint256"}]},
{"type":"function","name":"register","stateMutability":"nonpayable","inputs":[{"name":"agentURI","type":"string"}],"outputs":[{"name":"agentId","type":"uint256"}]},
{"type":"function","name":"register","stateMutability":"nonpayable","inputs":[{"name":"agentURI","type":"string"},{"name":"metadata","type":"tuple[]","components":[{"name":"metadataKey","type":"string"},{"name":"metadataValue","type":"bytes"}]}],"outputs":[{"name":"agentId","type":"uint256"}]},
{"type":"function","name":"getMetadata","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"},{"name":"key","type":"string"}],"outputs":[{"name":"","type":"bytes"}]},
{"type":"function","name":"setMetadata","stateMutability":"nonpayable","inputs":[{"name":"agentId","type":"uint256"},{"name":"key","type":"string"},{"name":"value","type":"bytes"}],"outputs":[]},
{"type":"function","name":"setAgentURI","stateMutability":"nonpayable","inputs":[{"name":"agentId","type":"uint256"},{"name":"newURI","type":"string"}],"outputs":[]},
{"type":"function","name":"getAgentWallet","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"}],"outputs":[{"name":"","type":"address"}]},
{"type":"event","name":"Registered","anonymous":false,"inputs":[{"name":"agentId","type":"uint256","indexed":true},{"name":"agentURI","type":"string","indexed":false},{"name":"owner","type":"address","indexed":true}]},
{"type":"event","name":"URIUpdated","anonymous":false,"inputs":[{"name":"agentId","type":"uint256","indexed":true},{"name":"newURI","type":"string","indexed":false},{"name":"updatedBy","type":"address","indexed":true}]},
{"type":"event","name":"MetadataSet","anonymous":false,"inputs":[{"name":"agentId","type":"uint256","indexed":true},{"name":"indexedMetadataKey","type":"string","indexed":true},{"name":"metadataKey","type":"string","indexed":false},{"name":"metadataValue","type":"bytes","indexed":false}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"tokenOfOwnerByIndex","stateMutability":"view","inputs":[{"name":"owner","type":"address"},{"name":"index","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"event","name":"Transfer","anonymous":false,"inputs":[{"name":"from","type":"address","indexed":true},{"name":"to","type":"address","indexed":true},{"name":"tokenId","type":"uint256","indexed":true}]}
]`

const erc8004ReputationJSON = `[
{"type":"function","name":"getIdentityRegistry","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"giveFeedback","stateMutability":"nonpayable","inputs":[{"name":"agentId","type":"uint256"},{"name":"value","type":"int128"},{"name":"valueDecimals","type":"uint8"},{"name":"tag1","type":"string"},{"name":"tag2","type":"string"},{"name":"endpoint","type":"string"},{"name":"feedbackURI","type":"string"},{"name":"feedbackHash","type":"bytes32"}],"outputs":[]},
{"type":"function","name":"revokeFeedback","stateMutability":"nonpayable","inputs":[{"name":"agentId","type":"uint256"},{"name":"feedbackIndex","type":"uint64"}],"outputs":[]},
{"type":"function","name":"appendResponse","stateMutability":"nonpayable","inputs":[{"name":"agentId","type":"uint256"},{"name":"clientAddress","type":"address"},{"name":"feedbackIndex","type":"uint64"},{"name":"responseURI","type":"string"},{"name":"responseHash","type":"bytes32"}],"outputs":[]},
{"type":"function","name":"getLastIndex","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"},{"name":"clientAddress","type":"address"}],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"readFeedback","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"},{"name":"clientAddress","type":"address"},{"name":"feedbackIndex","type":"uint64"}],"outputs":[{"name":"value","type":"int128"},{"name":"valueDecimals","type":"uint8"},{"name":"tag1","type":"string"},{"name":"tag2","type":"string"},{"name":"isRevoked","type":"bool"}]},
{"type":"function","name":"getSummary","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"},{"name":"clientAddresses","type":"address[]"},{"name":"tag1","type":"string"},{"name":"tag2","type":"string"}],"outputs":[{"name":"count","type":"uint64"},{"name":"summaryValue","type":"int128"},{"name":"summaryValueDecimals","type":"uint8"}]},
{"type":"function","name":"readAllFeedback","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"},{"name":"clientAddresses","type":"address[]"},{"name":"tag1","type":"string"},{"name":"tag2","type":"string"},{"name":"includeRevoked","type":"bool"}],"outputs":[{"name":"clients","type":"address[]"},{"name":"feedbackIndexes","type":"uint64[]"},{"name":"values","type":"int128[]"},{"name":"valueDecimals","type":"uint8[]"},{"name":"tag1s","type":"string[]"},{"name":"tag2s","type":"string[]"},{"name":"revokedStatuses","type":"bool[]"}]},
{"type":"function","name":"getClients","stateMutability":"view","inputs":[{"name":"agentId","type":"uint256"}],"outputs":[{"name":"","type":"address[]"}]},
{"type":"event","name":"NewFeedback","anonymous":false,"inputs":[{"name":"agentId","type":"uint256","indexed":true},{"name":"clientAddress","type":"address","indexed":true},{"name":"feedbackIndex","type":"uint64","indexed":false},{"name":"value","type":"int128","indexed":false},{"name":"valueDecimals","type":"uint8","indexed":false},{"name":"indexedTag1","type":"string","indexed":true},{"name":"tag1","type":"string","indexed":false},{"name":"tag2","type":"string","indexed":false},{"name":"endpoint","type":"string","indexed":false},{"name":"feedbackURI","type":"string","indexed":false},{"name":"feedbackHash","type":"bytes32","indexed":false}]},
{"type":"event","name":"FeedbackRevoked","anonymous":false,"inputs":[{"name":"agentId","type":"uint256","indexed":true},{"name":"clientAddress","type":"address","indexed":true},{"name":"feedbackIndex","type":"uint64","indexed":true}]}
]`
