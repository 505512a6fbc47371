package upstream

// StdioServer is stdioServer for the external tests.
var StdioServer = stdioServer
