-- A Gatekeeper database as saved by version 0.1.0 (commit aa035c6): no schema version,
-- unversioned game states. Upgrade tests load it; never edit it by hand.
BEGIN TRANSACTION;
CREATE TABLE "actions" (
   "game_id" INTEGER,
   "seq" INTEGER,
   "seat" INTEGER,
   "user_id" INTEGER,
   "action" TEXT,
   "source" TEXT,
   "interaction_id" INTEGER,
   "at" REAL,
   PRIMARY KEY ("game_id", "seq")
);
INSERT INTO "actions" VALUES(2,1,0,11,'play key-yellow E8','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,2,0,11,'move E8','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,3,1,22,'play skeleton A1','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,4,1,22,'stay','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,5,0,11,'play key-red E7','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,6,0,11,'move E7','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,7,0,11,'bonus E6','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,8,1,22,'play key-yellow E1','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(2,9,1,22,'move E1','button',NULL,1760000000.0);
INSERT INTO "actions" VALUES(4,1,0,NULL,'place hallway 1','ai',NULL,1760000005.0);
INSERT INTO "actions" VALUES(4,2,1,22,'place nursery 1','button',NULL,1760000005.0);
INSERT INTO "actions" VALUES(4,3,2,11,'place nursery 2','button',NULL,1760000005.0);
INSERT INTO "actions" VALUES(4,4,0,NULL,'place nursery 4','ai',NULL,1760000010.0);
INSERT INTO "actions" VALUES(4,5,1,22,'pick 2','button',NULL,1760000010.0);
INSERT INTO "actions" VALUES(4,6,2,11,'pick 1','button',NULL,1760000010.0);
INSERT INTO "actions" VALUES(4,7,1,22,'place basement 1','button',NULL,1760000010.0);
INSERT INTO "actions" VALUES(4,8,2,11,'place attic 2','button',NULL,1760000010.0);
INSERT INTO "actions" VALUES(4,9,0,NULL,'place attic 1','ai',NULL,1760000015.0);
INSERT INTO "actions" VALUES(4,10,1,22,'place attic 4','button',NULL,1760000015.0);
INSERT INTO "actions" VALUES(4,11,0,NULL,'pick 3','ai',NULL,1760000020.0);
INSERT INTO "actions" VALUES(4,12,2,11,'pick 1','button',NULL,1760000020.0);
INSERT INTO "actions" VALUES(4,13,2,11,'place library 2','button',NULL,1760000020.0);
INSERT INTO "actions" VALUES(4,14,0,NULL,'place library 1','ai',NULL,1760000025.0);
INSERT INTO "actions" VALUES(6,1,0,11,'fear Being the last one left awake','button',NULL,1760000025.0);
INSERT INTO "actions" VALUES(6,2,1,22,'fear Being lost in a forest after dark','button',NULL,1760000025.0);
INSERT INTO "actions" VALUES(6,3,2,NULL,'fear Needles','ai',NULL,1760000030.0);
INSERT INTO "actions" VALUES(6,4,0,11,'roll 2','button',NULL,1760000030.0);
INSERT INTO "actions" VALUES(6,5,0,11,'outside','button',NULL,1760000030.0);
INSERT INTO "actions" VALUES(6,6,0,11,'fly O30','button',NULL,1760000030.0);
INSERT INTO "actions" VALUES(6,7,1,22,'roll 2','button',NULL,1760000030.0);
INSERT INTO "actions" VALUES(6,8,1,22,'outside','button',NULL,1760000030.0);
INSERT INTO "actions" VALUES(6,9,2,NULL,'roll 2','ai',NULL,1760000035.0);
INSERT INTO "actions" VALUES(6,10,2,NULL,'outside','ai',NULL,1760000035.0);
INSERT INTO "actions" VALUES(6,11,0,11,'roll 1','button',NULL,1760000035.0);
INSERT INTO "actions" VALUES(6,12,1,22,'roll 2','button',NULL,1760000035.0);
INSERT INTO "actions" VALUES(6,13,2,NULL,'roll 2','ai',NULL,1760000040.0);
CREATE TABLE "games" (
   "id" INTEGER PRIMARY KEY,
   "guild_id" INTEGER,
   "channel_id" INTEGER,
   "game" TEXT,
   "status" TEXT,
   "host_id" INTEGER,
   "seed" INTEGER,
   "options" TEXT,
   "seats" TEXT,
   "state" TEXT,
   "version" INTEGER,
   "result" TEXT,
   "turn_started" REAL,
   "created_at" REAL,
   "updated_at" REAL
);
INSERT INTO "games" VALUES(1,1,500,'castle','lobby',11,100,'{}','[{"name": "Ann", "user_id": 11, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Bob", "user_id": 22, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}]',NULL,0,'null',0.0,1760000000.0,1760000000.0);
INSERT INTO "games" VALUES(2,1,501,'castle','running',11,101,'{}','[{"name": "Ann", "user_id": 11, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Bob", "user_id": 22, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}]','{"data":{"cols":5,"current":0,"discard":["key-yellow","skeleton","key-red","key-yellow"],"draw":["key-blue","passage","key-yellow","key-green","skeleton","skeleton","padlock","padlock","key-red","key-green","key-blue","skeleton","key-red","key-blue","key-red","passage","skeleton","key-red","key-red","skeleton","passage","padlock","key-yellow","skeleton","key-yellow","skeleton","skeleton","key-green","key-blue","hacksaw","hacksaw","key-green","hacksaw","key-green","net","skeleton","passage","key-blue","key-yellow","key-blue","padlock","key-yellow","key-green"],"last":{"seat":1,"tiles":["E1"]},"passages":[],"phase":"play","players":[{"bonuses_used":["E7"],"hand":["key-green","passage","key-red","padlock"],"netted":0,"pos":"E7","side":"S"},{"bonuses_used":[],"hand":["key-blue","net","padlock"],"netted":0,"pos":"E1","side":"N"}],"rows":8,"tiles":[{"colour":"red","face":"barred","hacksaw":false,"open":true,"padlock":false,"revealed":true},{"colour":"blue","face":"extra_turn","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"open","hacksaw":false,"open":true,"padlock":false,"revealed":true},{"colour":"yellow","face":"extra_turn","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"extra_turn","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"extra_key","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"extra_key","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"extra_turn","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"open","hacksaw":false,"open":true,"padlock":false,"revealed":true},{"colour":"red","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"extra_key","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"barred","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"extra_key","hacksaw":false,"open":true,"padlock":false,"revealed":true},{"colour":"green","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"blue","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"green","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"red","face":"open","hacksaw":false,"open":false,"padlock":false,"revealed":false},{"colour":"yellow","face":"open","hacksaw":false,"open":true,"padlock":false,"revealed":true}],"unused":[],"winner":null},"game":"castle","options":{},"over":false,"result":null,"rng":15848095249999370225,"seats":2,"seed":101,"turn":5,"version":9}',9,'null',1760000000.0,1760000000.0,1760000000.0);
INSERT INTO "games" VALUES(3,1,502,'dontgo','lobby',11,102,'{}','[{"name": "Ann", "user_id": 11, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Bob", "user_id": 22, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}]',NULL,0,'null',0.0,1760000000.0,1760000000.0);
INSERT INTO "games" VALUES(4,1,503,'dontgo','running',11,103,'{}','[{"name": "AI 1", "user_id": null, "ai": true, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Bob", "user_id": 22, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Ann", "user_id": 11, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}]','{"data":{"active":1,"clocks":null,"current":1,"deck":[36,38,66,52,51,58,59,56,39,68,64,11,55,34,10,60,71,35,53,50,65],"dice":{"changed":false,"faces":[0],"rerolled":false,"slot":0},"ending":false,"last":{"seat":0,"slot":0,"text":"Red placed a meeple in the Library, space 1."},"pending":[],"phase":"place","players":[{"cards":[{"dispelled":false,"id":45,"used":false},{"dispelled":false,"id":67,"used":false}],"meeples":3,"tokens":{"1":1,"2":0,"5":0,"sub":0}},{"cards":[{"dispelled":false,"id":32,"used":false},{"dispelled":false,"id":46,"used":false}],"meeples":4,"tokens":{"1":0,"2":1,"5":0,"sub":0}},{"cards":[{"dispelled":false,"id":57,"used":false},{"dispelled":false,"id":37,"used":false}],"meeples":4,"tokens":{"1":1,"2":0,"5":0,"sub":0}}],"pool":{"1":22,"2":19,"5":2},"removed":[8,12,14,40,41,47,48,49,54,62,63,69],"res":null,"rooms":[{"cards":[43,42,44],"hidden":false,"lib":[43,44],"removed":false,"seen":[],"side":1,"spaces":[0,2,null,null]},{"cards":[15,70,9],"hidden":false,"lib":null,"removed":false,"seen":[],"side":0,"spaces":[1,null,null,null]},{"cards":[61,13,33],"hidden":false,"lib":null,"removed":false,"seen":[],"side":0,"spaces":[0,null,null]}],"scores":null,"unused":[0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95],"winners":null},"game":"dontgo","options":{},"over":false,"result":null,"rng":14577415126949035473,"seats":3,"seed":103,"turn":11,"version":14}',14,'null',1760000025.0,1760000000.0,1760000025.0);
INSERT INTO "games" VALUES(5,1,504,'atmosfear','lobby',11,104,'{"minutes": 40}','[{"name": "Ann", "user_id": 11, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Bob", "user_id": 22, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}]',NULL,0,'null',0.0,1760000025.0,1760000025.0);
INSERT INTO "games" VALUES(6,1,505,'atmosfear','running',11,105,'{"minutes": 40}','[{"name": "Ann", "user_id": 11, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "Bob", "user_id": 22, "ai": false, "dm_closed": false, "timeouts": 0, "votes": []}, {"name": "AI 1", "user_id": null, "ai": true, "dm_closed": false, "timeouts": 0, "votes": []}]','{"data":{"black_key":{"holder":null,"on_board":true},"chosen":null,"clock":{"end":1760002430.0,"minutes":40,"paused_at":null},"current":0,"dice":[1,5],"fate":["F09","F24","F16","F22","F19","F08","F21","F05","F23","F15","F17","F01","F10","F18","F14","F02","F07","F06","F11","F04","F20","F13","F03","F12"],"fears":["Being the last one left awake","Being lost in a forest after dark","Needles"],"gk":{"calling":null,"deadline":null,"leave_at":null,"line":null,"n":0,"next":1760000077.8171356,"on":false,"order":null},"last":{"path":["O28","O29","O30","O31","O32","O33","O34"],"seat":2},"move":null,"now":1760000040.0,"phase":"play","players":[{"extra":false,"hole":false,"must_roll":null,"pos":"O31","rack":[],"time_cards":[]},{"extra":false,"hole":false,"must_roll":null,"pos":"O26","rack":[],"time_cards":[]},{"extra":false,"hole":false,"must_roll":null,"pos":"O34","rack":[],"time_cards":["T12"]}],"read":[],"realm_keys":[6,6,6,6,6,6],"removed":{"blue":0,"green":0,"orange":0,"purple":0,"red":0,"yellow":0},"step":"turn","time":["T09","T01","T03","T11","T07","T06","T08","T13","T10","T05","T04","T02","T14"],"well":[0,1,2],"winner":null},"game":"atmosfear","options":{"minutes":40},"over":false,"result":null,"rng":12278733189936530521,"seats":3,"seed":105,"turn":7,"version":13}',13,'null',1760000040.0,1760000025.0,1760000040.0);
CREATE TABLE "messages" (
   "game_id" INTEGER,
   "kind" TEXT,
   "channel_id" INTEGER,
   "message_id" INTEGER,
   PRIMARY KEY ("game_id", "kind")
);
CREATE TABLE "stats" (
   "guild_id" INTEGER,
   "user_id" INTEGER,
   "game" TEXT,
   "played" INTEGER,
   "won" INTEGER,
   PRIMARY KEY ("guild_id", "user_id", "game")
);
CREATE TABLE "timers" (
   "game_id" INTEGER,
   "timer_id" TEXT,
   "due_at" REAL,
   "kind" TEXT,
   "payload" TEXT,
   PRIMARY KEY ("game_id", "timer_id")
);
INSERT INTO "timers" VALUES(2,'warn',1760000300.0,'warn','{"version": 9, "turn": 5, "seat": 0}');
INSERT INTO "timers" VALUES(2,'timeout',1760000600.0,'timeout','{"version": 9, "turn": 5, "seat": 0}');
INSERT INTO "timers" VALUES(4,'warn',1760000325.0,'warn','{"version": 14, "turn": 11, "seat": 1}');
INSERT INTO "timers" VALUES(4,'timeout',1760000625.0,'timeout','{"version": 14, "turn": 11, "seat": 1}');
INSERT INTO "timers" VALUES(6,'warn',1760000340.0,'warn','{"version": 13, "turn": 7, "seat": 0}');
INSERT INTO "timers" VALUES(6,'timeout',1760000640.0,'timeout','{"version": 13, "turn": 7, "seat": 0}');
INSERT INTO "timers" VALUES(6,'game:gk-appear-1',1.76000007781713557241e+09,'game','{"version": 13, "turn": 7, "seat": -1, "action": "gk appear"}');
INSERT INTO "timers" VALUES(6,'game:time-T12',1760002010.0,'game','{"version": 13, "turn": 7, "seat": -1, "action": "time T12"}');
INSERT INTO "timers" VALUES(6,'game:clock-end',1760002430.0,'game','{"version": 13, "turn": 7, "seat": -1, "action": "clock end"}');
CREATE INDEX "idx_games_status"
    ON "games" ("status");
CREATE INDEX "idx_games_guild_id_status"
    ON "games" ("guild_id", "status");
CREATE UNIQUE INDEX "idx_actions_interaction_id"
    ON "actions" ("interaction_id");
COMMIT;
