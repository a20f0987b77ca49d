"""Space Empires 4X: battle resolution and the exact battle calculator (`combat`, `odds`); the engine is to come
(issue 17). The package registers no engine yet."""
